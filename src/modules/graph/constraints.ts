import { AppError } from '../../shared/errors.ts';
import type {
  NodeConstraint,
  EdgeConstraint,
  PropertyMatch,
  SetValue,
  ViaRelationship,
  WhenCondition,
} from './policy.schemas.ts';
import { DEFAULT_THRESHOLD } from './policy.schemas.ts';
import { canonicalKey, type NodeRow } from './graph.store.ts';

/** A node about to be stored; `existing` when a constraint matched it to a stored node. */
export interface PlannedNode {
  key: string;
  type: string;
  name: string;
  properties: Record<string, unknown>;
  existing?: boolean;
}

export interface PlannedEdge {
  source: string;
  target: string;
  type: string;
  properties: Record<string, unknown>;
}

/** Stored nodes of a type in the memory's organization and namespace (cached per build). */
export type Candidates = (type: string) => Promise<NodeRow[]>;

/** Neighbours of stored nodes over one relationship type (for `via_relationship` searches). */
export type Neighbours = (nodeIds: string[], v: ViaRelationship) => Promise<Map<string, NodeRow[]>>;

/** Cosine similarity of `text` to each of `others` with the embedder (semantic matching). */
export type Similarity = (text: string, others: string[]) => Promise<number[]>;

/** A constraint that cannot be met (`on_miss: error`): the memory fails with this reason. */
export class ConstraintError extends AppError {
  /** Another attempt would miss the same way (the job is dead at once). */
  readonly permanent = true;
  constructor(message: string, details: Record<string, unknown>) {
    super(422, message, details);
  }
}

/** `when`: comparisons are equality on the node's properties (and `name`); _and/_or/_not nest. */
export function holds(when: WhenCondition | undefined, props: Record<string, unknown>): boolean {
  if (!when) return true;
  if (when._and) return when._and.every((c) => holds(c, props));
  if (when._or) return when._or.some((c) => holds(c, props));
  if (when._not) return !holds(when._not, props);
  return Object.entries(when).every(([k, v]) => (props[k] ?? null) === v);
}

/** Levenshtein ratio 0..1 of two canonical strings (1 = equal). */
export function fuzzyRatio(a: string, b: string): number {
  const x = canonicalKey(a);
  const y = canonicalKey(b);
  if (x === y) return 1;
  const prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (x[i - 1] === y[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return 1 - prev[y.length] / Math.max(x.length, y.length, 1);
}

/**
 * Word-level cosine of two strings: `semantic` matching when no embedder is at hand (unit
 * use); it treats "Acme Corporation" and "the Acme corporation" alike.
 */
export function wordCosine(a: string, b: string): number {
  const bag = (s: string) => {
    const m = new Map<string, number>();
    for (const w of canonicalKey(s).match(/[\p{L}\p{N}]+/gu) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const x = bag(a);
  const y = bag(b);
  let dot = 0;
  for (const [w, n] of x) dot += n * (y.get(w) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  return dot ? dot / (norm(x) * norm(y)) : 0;
}

const propsOf = (n: { name: string; properties: Record<string, unknown> }): Record<string, unknown> => ({
  ...n.properties,
  name: n.name,
});

function matches(p: PropertyMatch, wanted: unknown, candidate: NodeRow): boolean {
  const have = propsOf(candidate)[p.name];
  if (have === undefined || wanted === undefined) return false;
  if (p.mode === 'exact')
    return typeof wanted === 'string' && typeof have === 'string'
      ? canonicalKey(wanted) === canonicalKey(have)
      : wanted === have;
  const score =
    p.mode === 'fuzzy' ? fuzzyRatio(String(wanted), String(have)) : wordCosine(String(wanted), String(have));
  return score >= (p.threshold ?? DEFAULT_THRESHOLD[p.mode]);
}

/** The most similar candidate by embedding, if it reaches the threshold. */
async function semanticMatch(
  p: PropertyMatch,
  wanted: unknown,
  pool: NodeRow[],
  similarity: Similarity,
): Promise<NodeRow | undefined> {
  const withValue = pool.filter((n) => propsOf(n)[p.name] !== undefined);
  if (wanted === undefined || !withValue.length) return undefined;
  const sims = await similarity(
    String(wanted),
    withValue.map((n) => String(propsOf(n)[p.name])),
  );
  let best = -1;
  sims.forEach((x, i) => (best = best < 0 || x > sims[best] ? i : best));
  return sims[best] >= (p.threshold ?? DEFAULT_THRESHOLD.semantic) ? withValue[best] : undefined;
}

/** Matching services: stored candidates, and optionally relationships and an embedder. */
export interface MatchContext {
  candidates: Candidates;
  neighbours?: Neighbours;
  similarity?: Similarity;
}

/** Keep the stored nodes that have, for every `via` step, a neighbour matching its target search. */
async function throughRelationships(
  pool: NodeRow[],
  via: ViaRelationship[],
  neighbours: Neighbours,
): Promise<NodeRow[]> {
  let kept = pool;
  for (const v of via) {
    const next = await neighbours(
      kept.map((n) => n.id),
      v,
    );
    const wanted = v.target_search?.properties ?? [];
    kept = kept.filter((n) =>
      (next.get(n.id) ?? []).some((t) => wanted.every((p) => p.value === undefined || matches(p, p.value, t))),
    );
  }
  return kept;
}

/**
 * The stored node a constraint's search finds: among nodes of the type (narrowed by every
 * `via_relationship` step), the first match of the properties in priority order; with only
 * relationship steps, the first node they leave.
 */
async function findExisting(
  c: NodeConstraint,
  valueOf: (p: PropertyMatch) => unknown,
  ctx: MatchContext,
): Promise<NodeRow | undefined> {
  let pool = await ctx.candidates(c.node_type);
  const via = c.search?.via_relationship ?? [];
  if (via.length && ctx.neighbours) pool = await throughRelationships(pool, via, ctx.neighbours);
  const props = c.search?.properties ?? [];
  if (!props.length) return via.length ? pool[0] : undefined;
  for (const p of props) {
    const wanted = valueOf(p);
    const hit =
      p.mode === 'semantic' && ctx.similarity
        ? await semanticMatch(p, wanted, pool, ctx.similarity)
        : pool.find((n) => matches(p, wanted, n));
    if (hit) return hit;
  }
  return undefined;
}

/** Fixed (`mode: exact`) values of `set`; `mode: auto` keeps what the extractor found. */
export function fixedValues(set: Record<string, SetValue> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(set ?? {}).flatMap(([k, v]) => (v.mode === 'exact' ? [[k, v.value]] : [])));
}

/**
 * Apply node constraints to the planned nodes, in order:
 * - a constraint whose search gives values (`link_to: Person:name=Ana`) names a node to link
 *   the memory to: the stored match, or a new node (upsert), or nothing / an error (lookup);
 * - otherwise every planned node of its type that satisfies `when` is matched against stored
 *   nodes by the search properties (exact; fuzzy Levenshtein ratio; semantic embedding cosine,
 *   or word cosine without an embedder; thresholds as given):
 *   a match makes it that node (so the upsert reuses it); no match with `create: lookup`
 *   drops it (`on_miss: ignore`) or fails the memory (`on_miss: error`);
 * - fixed `set` values are written on the nodes it applies to.
 */
export async function applyNodeConstraints(
  nodes: PlannedNode[],
  constraints: NodeConstraint[],
  ctx: MatchContext,
): Promise<PlannedNode[]> {
  let out = [...nodes];
  for (const [i, c] of constraints.entries()) {
    const given = (c.search?.properties ?? []).filter((p) => p.value !== undefined);
    // A relationship-only search (Type.via(...)) names its node through the relationship.
    const viaOnly = !(c.search?.properties ?? []).length && !!c.search?.via_relationship?.length;
    const set = fixedValues(c.set);
    if (given.length || viaOnly) {
      const hit = await findExisting(c, (p) => p.value, ctx);
      if (hit) {
        out.push({ key: `constraint:${i}`, type: hit.type, name: hit.name, properties: set, existing: true });
      } else if (c.create === 'upsert' && given.length) {
        const values = Object.fromEntries(given.map((p) => [p.name, p.value]));
        const name = String(values.name ?? given[0].value);
        out.push({ key: `constraint:${i}`, type: c.node_type, name, properties: { ...values, ...set } });
      } else if (c.on_miss === 'error') {
        const what = given.length
          ? given.map((p) => `${p.name}=${p.value}`).join(', ')
          : `through ${c.search!.via_relationship!.map((v) => v.edge_type).join(', ')}`;
        throw new ConstraintError(`No ${c.node_type} matches ${what}`, { node_type: c.node_type });
      }
      continue;
    }
    const kept: PlannedNode[] = [];
    for (const n of out) {
      if (n.type !== c.node_type || n.existing || !holds(c.when, propsOf(n))) {
        kept.push(n);
        continue;
      }
      const hit = c.search ? await findExisting(c, (p) => propsOf(n)[p.name], ctx) : undefined;
      if (hit) {
        kept.push({ ...n, name: hit.name, properties: { ...n.properties, ...set }, existing: true });
      } else if (c.create === 'lookup') {
        if (c.on_miss === 'error')
          throw new ConstraintError(`No stored ${c.node_type} matches "${n.name}"`, {
            node_type: c.node_type,
            name: n.name,
          });
      } else {
        kept.push({ ...n, properties: { ...n.properties, ...set } });
      }
    }
    out = kept;
  }
  return out;
}

/**
 * Apply edge constraints: relationships of `edge_type` (between the given source/target
 * types, either way round for direction `both`) get the fixed `set` values; with
 * `create: lookup` only those between two stored (matched) nodes are kept, and a miss is
 * an error with `on_miss: error`.
 */
export function applyEdgeConstraints(
  edges: PlannedEdge[],
  nodes: PlannedNode[],
  constraints: EdgeConstraint[],
): PlannedEdge[] {
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  let out = [...edges];
  for (const c of constraints) {
    const applies = (e: PlannedEdge) => {
      const s = byKey.get(e.source);
      const t = byKey.get(e.target);
      if (e.type !== c.edge_type || !s || !t) return false;
      const forward = (!c.source_type || s.type === c.source_type) && (!c.target_type || t.type === c.target_type);
      const backward =
        c.direction === 'both' &&
        (!c.source_type || t.type === c.source_type) &&
        (!c.target_type || s.type === c.target_type);
      return (forward || backward) && holds(c.when, e.properties);
    };
    const set = fixedValues(c.set);
    out = out.flatMap((e) => {
      if (!applies(e)) return [e];
      if (c.create === 'lookup' && !(byKey.get(e.source)?.existing && byKey.get(e.target)?.existing)) {
        if (c.on_miss === 'error')
          throw new ConstraintError(`${c.edge_type} needs stored nodes at both ends`, { edge_type: c.edge_type });
        return [];
      }
      return [{ ...e, properties: { ...e.properties, ...set } }];
    });
  }
  return out;
}
