/**
 * Open Memory Object v1 ⇄ Engram memory, field by field (docs/omo.md has the table). Pure:
 * what needs the store (owners, namespaces, ACL entries naming ids) is decided by the service.
 */
import { iso } from '../../shared/time.ts';
import { GRAPH_LIMITS, type MemoryGraph } from '../graph/index.ts';
import type { AddMemoryBody, MemoryRow } from '../memories/index.ts';
import type { OmoInput, omoOutput } from './omo.schemas.ts';
import type { z } from 'zod';

export type OmoOutput = z.infer<typeof omoOutput>;

/** The prefix of every extension field Engram writes. */
export const EXT = 'engram:';

const TO_OMO_TYPE: Record<string, OmoOutput['type']> = { text: 'text', code_snippet: 'code', document: 'file' };
const FROM_OMO_TYPE: Record<OmoInput['type'], 'text' | 'code_snippet' | 'document'> = {
  text: 'text',
  code: 'code_snippet',
  file: 'document',
  image: 'document',
  audio: 'document',
  video: 'document',
};
const ENGRAM_TYPES = new Set(['text', 'code_snippet', 'document']);

/** A node type the graph accepts (letters, digits and _, not starting with a digit). */
const TYPE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The graph extension: the memory's nodes and relationships (`$this` is the memory itself). */
interface GraphExt {
  nodes: { id: string; type: string; name: string; properties: Record<string, unknown> }[];
  relationships: { source: string; target: string; type: string; properties: Record<string, unknown> }[];
  truncated: boolean;
}

/** A relationship end as exported: `$this`, another memory (`memory:<id>`), or a node id. */
function endOf(row: MemoryRow, id: string, type: string, name: string): string {
  if (type !== 'Memory') return id;
  return name === row.id ? '$this' : `memory:${name}`;
}

function graphExt(row: MemoryRow, g: MemoryGraph | undefined): GraphExt {
  if (!g) return { nodes: [], relationships: [], truncated: false };
  return {
    nodes: g.nodes
      .filter((n) => n.type !== 'Memory')
      .map((n) => ({ id: n.id, type: n.type, name: n.name, properties: n.properties })),
    relationships: g.edges.map((e) => ({
      source: endOf(row, e.source, e.source_type, e.source_name),
      target: endOf(row, e.target, e.target_type, e.target_name),
      type: e.type,
      properties: e.properties,
    })),
    truncated: g.truncated,
  };
}

/** A stored memory as an OMO v1 object; what OMO has no field for goes in `ext` (engram:*). */
export function toOmo(row: MemoryRow, graph?: MemoryGraph): OmoOutput {
  const metadata = row.metadata ?? {};
  const topics = Array.isArray(metadata.topics) ? metadata.topics.filter((t) => typeof t === 'string') : [];
  return {
    id: row.id,
    createdAt: iso(row.created_at)!,
    type: TO_OMO_TYPE[row.type] ?? 'text',
    content: row.content,
    consent: row.consent as OmoOutput['consent'],
    risk: row.risk as OmoOutput['risk'],
    topics,
    ...(typeof metadata.sourceUrl === 'string' ? { sourceUrl: metadata.sourceUrl } : {}),
    acl: { read: row.acl_read, write: row.acl_write },
    ext: {
      [`${EXT}type`]: row.type,
      [`${EXT}metadata`]: metadata,
      [`${EXT}organization_id`]: row.organization_id,
      [`${EXT}namespace_id`]: row.namespace_id,
      [`${EXT}user_id`]: row.user_id,
      [`${EXT}external_user_id`]: row.external_user_id,
      [`${EXT}context`]: row.context,
      [`${EXT}updatedAt`]: iso(row.updated_at),
      [`${EXT}graph`]: graphExt(row, graph),
    },
  };
}

/** Where an imported object came from, by its engram:* extensions (absent for other platforms' objects). */
export interface OmoSource {
  organizationId?: string;
  namespaceId?: string;
  userId?: string;
  externalUserId?: string;
}

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
const obj = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The exporting organization, namespace and owner an object names (engram:* extensions). */
export function sourceOf(omo: OmoInput): OmoSource {
  const ext = omo.ext ?? {};
  return {
    organizationId: str(ext[`${EXT}organization_id`]),
    namespaceId: str(ext[`${EXT}namespace_id`]),
    userId: str(ext[`${EXT}user_id`]),
    externalUserId: str(ext[`${EXT}external_user_id`]),
  };
}

/** The id an earlier import kept as metadata.omo_id (an imported memory exported again). */
function originOf(omo: OmoInput): string | undefined {
  return str(obj(omo.ext?.[`${EXT}metadata`])?.omo_id);
}

/** Ids this object is known by: its own and its origin's. skip_duplicates looks for these. */
export function omoKeys(omo: OmoInput): string[] {
  const origin = originOf(omo);
  return origin && origin !== omo.id ? [omo.id, origin] : [omo.id];
}

/** Metadata keys the memory write reads as deprecated top-level fields: never taken from an import. */
const SCOPE_KEYS = ['external_user_id', 'namespace_id', 'user_id', 'organization_id', 'consent', 'risk', 'acl'];

/**
 * The memory item for an object, without owner, namespace and ACL (the service decides them):
 * content, type, metadata (the object's engram:metadata, its topics and sourceUrl, and
 * omo_id / omo_created_at), context, consent, risk, and the exported graph as a manual graph.
 */
export function toMemoryBody(omo: OmoInput): AddMemoryBody {
  const ext = omo.ext ?? {};
  const metadata: Record<string, unknown> = { ...(obj(ext[`${EXT}metadata`]) ?? {}) };
  for (const k of SCOPE_KEYS) delete metadata[k];
  if (omo.topics) metadata.topics = omo.topics;
  if (omo.sourceUrl !== undefined) metadata.sourceUrl = omo.sourceUrl;
  metadata.omo_id = originOf(omo) ?? omo.id;
  metadata.omo_created_at = omo.createdAt;
  const type = str(ext[`${EXT}type`]);
  if (!type || !ENGRAM_TYPES.has(type)) {
    if (['image', 'audio', 'video'].includes(omo.type)) metadata.omo_type = omo.type;
  }
  const context = Array.isArray(ext[`${EXT}context`]) ? (ext[`${EXT}context`] as AddMemoryBody['context']) : undefined;
  const graph = manualGraph(ext[`${EXT}graph`]);
  return {
    content: omo.content,
    type: type && ENGRAM_TYPES.has(type) ? (type as AddMemoryBody['type']) : FROM_OMO_TYPE[omo.type],
    metadata: metadata as AddMemoryBody['metadata'],
    ...(context ? { context } : {}),
    policy: { consent: omo.consent, risk: omo.risk, ...(graph ? { graph } : {}) },
  };
}

/**
 * The exported graph as a manual graph policy (docs/graph.md, mode manual): its nodes and the
 * relationships between them and `$this`; relationships to other memories are left out (their
 * ids are not this organization's). Undefined when it has no nodes: the memory is then
 * extracted like any new one.
 */
export function manualGraph(value: unknown): Record<string, unknown> | undefined {
  const g = obj(value);
  const nodes = (Array.isArray(g?.nodes) ? g.nodes : [])
    .map(obj)
    .filter((n): n is Record<string, unknown> => !!n && !!str(n.id) && !!str(n.name) && TYPE_NAME.test(String(n.type)))
    .slice(0, GRAPH_LIMITS.nodes)
    .map((n) => ({
      id: String(n.id),
      type: String(n.type),
      properties: { ...(obj(n.properties) ?? {}), name: n.name },
    }));
  if (!nodes.length) return undefined;
  const ids = new Set(nodes.map((n) => n.id));
  const known = (end: unknown) => end === '$this' || ids.has(String(end));
  const relationships = (Array.isArray(g?.relationships) ? g.relationships : [])
    .map(obj)
    .filter(
      (r): r is Record<string, unknown> => !!r && known(r.source) && known(r.target) && TYPE_NAME.test(String(r.type)),
    )
    .slice(0, GRAPH_LIMITS.relationships)
    .map((r) => ({
      source: String(r.source),
      target: String(r.target),
      type: String(r.type),
      properties: obj(r.properties) ?? {},
    }));
  return { mode: 'manual', nodes, relationships };
}
