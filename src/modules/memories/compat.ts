import { unprocessable } from '../../shared/errors.ts';
import { aclConfig, memoryAddPolicy, type AddMemoryBody } from './memories.schemas.ts';
import type { TruthRequest } from './truth.ts';

type Obj = Record<string, unknown>;
type TransformEmbedding = NonNullable<NonNullable<AddMemoryBody['policy']>['transform_embedding']>;

/** The one internal shape of a memory write, whatever names and deprecated forms arrived. */
export interface MemoryInput {
  content: string;
  type: string;
  context?: { role: string; content: string }[];
  metadata: Obj;
  externalUserId?: string;
  /** Deprecated internal user id (`user_id`). */
  userId?: string;
  namespaceId?: string;
  policy: NormalisedPolicy;
  occurredAt: Date | null;
  /** Duplicate folding and supersession asked of this write (truth.ts). */
  truth: TruthRequest;
}

/** A type, not an interface: it is stored as the row's `policy` (a `Record<string, unknown>`). */
export type NormalisedPolicy = {
  graph: Obj;
  /** The deprecated graph_generation, kept beside `graph` (policy.graph and memory_policy win over it). */
  graph_generation?: Obj;
  transform_embedding?: TransformEmbedding;
  consent?: string;
  risk?: string;
  acl?: { read?: string[]; write?: string[] };
};

/** Deprecated query parameters of POST /v1/memory and the batch endpoint. */
export interface LegacyQuery {
  enable_holographic?: boolean;
  frequency_schema_id?: string;
}

const CATEGORY_ALIASES: Record<string, string> = { facts: 'fact' };

/** `fact` (client) and `facts` (spec) are one category; stored and filtered as `fact`. */
export function canonicalCategory(category: unknown): unknown {
  return typeof category === 'string' ? (CATEGORY_ALIASES[category] ?? category) : category;
}

/** Take `current` or `deprecated`; both present and different is a 422 naming both fields. */
function pick<T>(current: T | undefined, deprecated: T | undefined, names: [string, string]): T | undefined {
  if (current !== undefined && deprecated !== undefined && JSON.stringify(current) !== JSON.stringify(deprecated)) {
    throw unprocessable(`Conflicting fields: ${names[0]} and deprecated ${names[1]} differ; send only ${names[0]}`, {
      fields: names,
    });
  }
  return current ?? deprecated;
}

/**
 * A deprecated metadata key read as a string field: the metadata is open, so its value may be
 * of any type; one that is not a string is not read (like a malformed `metadata.acl`).
 */
function legacyString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Deprecated `metadata.consent` / `metadata.risk`: read when a string, and then it must be one
 * of the values its policy field takes (a 422 naming it), or it would be stored unchecked and
 * escape the consent and risk filters.
 */
function legacyPolicyValue(value: unknown, field: 'consent' | 'risk'): string | undefined {
  const given = legacyString(value);
  if (given === undefined) return undefined;
  const parsed = memoryAddPolicy.shape[field].safeParse(given);
  if (parsed.success) return given;
  const name = `metadata.${field}`;
  throw unprocessable(`${name}: ${parsed.error.issues[0].message}`, { field: name });
}

/**
 * `metadata.createdAt` as a date, or null when it is not one. Years outside 1–9999 count as
 * not a date: JavaScript reaches year 275760, but such a Date does not survive the trip to
 * the store (PGlite sends `+099999-…`, a 500).
 */
function parseOccurredAt(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const d = new Date(value);
  const year = d.getUTCFullYear();
  return Number.isNaN(d.getTime()) || year < 1 || year > 9999 ? null : d;
}

/**
 * Map every accepted form (spec names, client names, deprecated fields of spec §9.7) to
 * `MemoryInput`, once, at the edge. `defaults` are batch-level values for items that do
 * not set their own.
 */
export function normaliseMemory(
  body: AddMemoryBody,
  defaults: Partial<AddMemoryBody> = {},
  legacy: LegacyQuery = {},
): MemoryInput {
  const b: AddMemoryBody = { ...body };
  const fill = <K extends keyof AddMemoryBody>(k: K) => {
    const value = defaults[k];
    if (b[k] === undefined && value !== undefined) b[k] = value;
  };
  for (const k of [
    'external_user_id',
    'namespace_id',
    'policy',
    'memory_policy',
    'link_to',
    'graph_generation',
    'user_id',
    'dedupe',
    'supersede',
  ] as const) {
    fill(k);
  }
  const metadata: Obj = { ...(b.metadata ?? {}) };
  // Deprecated scope and policy keys inside metadata.
  const externalUserId = pick(b.external_user_id, legacyString(metadata.external_user_id), [
    'external_user_id',
    'metadata.external_user_id',
  ]);
  const namespaceId = pick(b.namespace_id, legacyString(metadata.namespace_id), [
    'namespace_id',
    'metadata.namespace_id',
  ]);
  const userId = pick(b.user_id, legacyString(metadata.user_id), ['user_id', 'metadata.user_id']);
  for (const k of ['external_user_id', 'namespace_id', 'user_id', 'organization_id']) delete metadata[k];
  if (metadata.category !== undefined) metadata.category = canonicalCategory(metadata.category);

  const policy: NonNullable<AddMemoryBody['policy']> = { ...(b.policy ?? {}) };
  const mp: NonNullable<AddMemoryBody['memory_policy']> = { ...(b.memory_policy ?? {}) };
  const legacyConsent = legacyPolicyValue(metadata.consent, 'consent');
  const legacyRisk = legacyPolicyValue(metadata.risk, 'risk');
  const legacyAcl = metadata.acl;
  delete metadata.consent;
  delete metadata.risk;
  delete metadata.acl;

  const consent = pick(pick(policy.consent, mp.consent, ['policy.consent', 'memory_policy.consent']), legacyConsent, [
    'policy.consent',
    'metadata.consent',
  ]);
  const risk = pick(pick(policy.risk, mp.risk, ['policy.risk', 'memory_policy.risk']), legacyRisk, [
    'policy.risk',
    'metadata.risk',
  ]);
  const acl = pick(policy.acl, mp.acl, ['policy.acl', 'memory_policy.acl']) ?? legacyAclToConfig(legacyAcl);

  // Graph: policy.graph > memory_policy > graph_generation (spec: policy takes precedence).
  const { acl: _a, consent: _c, risk: _r, ...mpGraph } = mp;
  const graph: Obj = {
    ...mpGraph,
    ...(policy.graph ?? {}),
  };
  if (mpGraph.mode === 'structured') graph.mode = 'manual';
  if (b.graph_generation?.mode && !policy.graph?.mode && !mp.mode) graph.mode = b.graph_generation.mode;
  if (b.link_to !== undefined)
    graph.link_to = pick(policy.graph?.link_to, b.link_to, ['policy.graph.link_to', 'link_to']);
  if (b.relationships_json) graph.relationships_json = b.relationships_json;
  // Deprecated item-level graph options (spec 2.2) join the graph plan like memory_policy's own.
  for (const k of ['relationships', 'link_to_previous_memory', 'link_to_related_memories'] as const) {
    if (b[k] !== undefined) graph[k] = pick(graph[k], b[k], [`memory_policy.${k}`, k]);
  }

  // Transform embedding: enable_holographic / frequency_schema_id are deprecated spellings.
  let transform: Obj | undefined = policy.transform_embedding ? { ...policy.transform_embedding } : undefined;
  if (legacy.enable_holographic !== undefined) {
    const mode = legacy.enable_holographic ? 'auto' : 'none';
    transform = {
      ...transform,
      mode: pick(transform?.mode, mode, ['policy.transform_embedding.mode', 'enable_holographic']),
    };
  }
  if (legacy.frequency_schema_id !== undefined) {
    transform = {
      ...transform,
      domain_id: pick(transform?.domain_id, legacy.frequency_schema_id, [
        'policy.transform_embedding.domain_id',
        'frequency_schema_id',
      ]),
    };
  }

  return {
    content: b.content,
    type: b.type ?? 'text',
    context: b.context,
    metadata,
    externalUserId,
    userId,
    namespaceId,
    policy: { graph, graph_generation: b.graph_generation, transform_embedding: transform, consent, risk, acl },
    occurredAt: parseOccurredAt(metadata.createdAt),
    truth: { dedupe: b.dedupe, supersede: b.supersede, supersedes: b.supersedes },
  };
}

/**
 * One list of the deprecated `metadata.acl`. Metadata is open, so its schema does not type
 * the list: the entries are checked here, with the bounds of `policy.acl` (aclConfig), since
 * they become the memory's stored ACL. A list that is not an array is not read (as before).
 */
function legacyAclList(list: unknown, field: string): string[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const parsed = aclConfig.shape.read.safeParse(list);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = issue.path.length ? `${field}[${String(issue.path[0])}]` : field;
  throw unprocessable(`${at}: ${issue.message} (entries are prefix:id strings)`, { field: at });
}

/** Deprecated `metadata.acl` map (`{read: [...], write: [...]}`) as an ACL config. */
function legacyAclToConfig(acl: unknown): NormalisedPolicy['acl'] {
  if (!acl || typeof acl !== 'object') return undefined;
  const a = acl as Obj;
  return { read: legacyAclList(a.read, 'metadata.acl.read'), write: legacyAclList(a.write, 'metadata.acl.write') };
}
