import type { Queryable } from '../../platform/db/index.ts';
import type { Extractor } from '../../platform/models/extractor.ts';
import type { GraphReader, NodeRow } from '../graph/index.ts';
import type { SearchOverride } from './search.schemas.ts';
import type { Ranked } from './fusion.ts';
import { STOP_WORDS } from '../../platform/text-analyzer.ts';
import { visibleMemories, type SearchScope } from './search.store.ts';

/**
 * Bounds of the walk (docs/graph.md has the measurements behind them): nodes linked to more
 * than MAX_DEGREE memories are hubs (the speaker, a frequent topic) and are skipped; each
 * seed contributes at most PER_SEED neighbours, and at most MAX_NODES nodes are read.
 */
const MAX_DEGREE = 200;
const PER_SEED = 25;
const MAX_NODES = 80;

/**
 * Answer-type cues: a question word that names the kind of entity asked for ("which company",
 * "what city", "who"), as the extractor types nodes. A related node of that kind is the likely
 * answer, so it counts as much as a node the query names. Classic question classification, a
 * fixed English lexicon rather than tuned weights.
 */
const ANSWER_TYPES: Record<string, string> = {
  who: 'Person',
  whom: 'Person',
  person: 'Person',
  company: 'Organization',
  employer: 'Organization',
  firm: 'Organization',
  organization: 'Organization',
  organisation: 'Organization',
  where: 'Place',
  city: 'Place',
  town: 'Place',
  country: 'Place',
  place: 'Place',
  when: 'Date',
  date: 'Date',
  year: 'Date',
  product: 'Product',
  event: 'Event',
};

/** The node types a question asks for (see ANSWER_TYPES). */
export function answerTypes(query: string): Set<string> {
  const words = query.toLowerCase().match(/\p{L}+/gu) ?? [];
  return new Set(words.flatMap((w) => (ANSWER_TYPES[w] ? [ANSWER_TYPES[w]] : [])));
}

/**
 * The agentic-graph signal (`enable_agentic_graph`): recognise the entities in the query with
 * the extractor, match them to stored nodes by canonical name, expand one relationship, and
 * score the memories linked to those nodes — a node named in the query counts 1, a neighbour
 * 1/2 (1 when it is of the kind the question asks for, answerTypes), each divided by
 * log(2 + how many memories the node links) so frequent nodes count less (hubs beyond
 * MAX_DEGREE not at all); a memory scores its best link. Only memories the search scope can
 * read survive (SQL).
 */
export async function graphSignal(
  graph: GraphReader,
  db: Queryable,
  extractor: Extractor,
  scope: SearchScope,
  query: string,
  limit: number,
): Promise<Ranked> {
  const extraction = await extractor.extract({ content: query });
  const keys = [
    ...new Set(
      [...extraction.nodes.flatMap((n) => [n.name, ...n.mentions]), ...phrases(query)]
        .map(graph.canonicalKey)
        .filter((k) => k.length > 1),
    ),
  ];
  const namespaceKey = scope.namespaceId ?? null;
  const matched = await graph.matchNodes(db, scope.organizationId, namespaceKey, keys);
  if (!matched.length) return new Map();
  const links = await graph.graphLinks(
    db,
    matched.map((n) => n.id),
    scope,
    { perSeed: PER_SEED, nodes: MAX_NODES, maxDegree: MAX_DEGREE },
  );
  const wanted = answerTypes(query);
  const raw = new Map<string, number>();
  for (const l of links) {
    const w = 1 / (l.depth === 0 || wanted.has(l.type) ? 1 : 2) / Math.log(2 + l.degree);
    // The strongest path, not the sum: a seed's neighbours are mostly found through the edges of
    // the very memory that names the seed, so a sum would count that memory's evidence again for
    // each entity it mentions and bury a memory reached by one relationship.
    raw.set(l.memory_id, Math.max(raw.get(l.memory_id) ?? 0, w));
  }
  const best = [...raw.entries()].sort((a, b) => b[1] - a[1]).slice(0, Math.max(limit * 3, 100));
  const visible = await visibleMemories(
    db,
    scope,
    best.map(([id]) => id),
  );
  return new Map(best.filter(([id]) => visible.has(id)).slice(0, limit));
}

/**
 * Every 1–3 word window of the query that is not only stop words: questions are short and
 * often split names the extractor keeps whole in statements ("Ana Silva's company" → Ana, Silva).
 * Matching is by exact canonical name, so extra windows cost an index probe each, nothing more.
 */
export function phrases(query: string): string[] {
  const words = query.replace(/['’]s\b/g, '').match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 3 && i + n <= words.length; n++) {
      const w = words.slice(i, i + n);
      if (w.every((x) => STOP_WORDS.has(x.toLowerCase()))) continue;
      if (n === 1 && w[0].length < 3) continue;
      out.push(w.join(' '));
    }
  }
  return out.slice(0, 60);
}

/**
 * The graph's part in a search: the caller's structured query (search_override) when given —
 * it replaces the generated one and, being the caller's own graph question, weighs as much as
 * all other signals together, and its matched nodes become `data.nodes` — else the agentic
 * signal when asked for, else nothing.
 */
export async function graphContribution(
  graph: GraphReader,
  db: Queryable,
  extractor: Extractor | undefined,
  scope: SearchScope,
  body: { query: string; enable_agentic_graph?: boolean; search_override?: SearchOverride },
  limit: number,
  weight: number,
): Promise<{ scores: Ranked; weight: number; nodes: ReturnType<typeof nodeView>[] | null }> {
  if (body.search_override) {
    const o = await overrideSignal(graph, db, scope, body.search_override, limit);
    return { scores: o.scores, weight: 1, nodes: o.nodes };
  }
  const scores =
    body.enable_agentic_graph && extractor && weight > 0
      ? await graphSignal(graph, db, extractor, scope, body.query, limit)
      : new Map<string, number>();
  return { scores, weight, nodes: null };
}

/** `data.nodes` of a search: the nodes linked to the returned memories, most linked first. */
export async function resultNodes(
  graph: GraphReader,
  db: Queryable,
  organizationId: string,
  memoryIds: string[],
  maxNodes: number,
  schemaId?: string,
) {
  const rows = await graph.nodesOfMemories(db, organizationId, memoryIds, maxNodes, schemaId);
  return rows.map((n) => nodeView(n));
}

/** A node as search responses show it; `only` keeps just those properties (and the id). */
export function nodeView(n: NodeRow, only?: string[]) {
  const all: Record<string, unknown> = { id: n.id, name: n.name, ...n.properties };
  const properties = only?.length
    ? Object.fromEntries(Object.entries(all).filter(([k]) => k === 'id' || only.includes(k)))
    : all;
  return { label: n.type, properties, schema_id: n.schema_id };
}

/**
 * `search_override`: the caller's structured graph query instead of the generated one. The
 * memories that produced matching relationships score by how many matches they produced (only
 * those the scope can read); the matched end nodes become `data.nodes`.
 */
export async function overrideSignal(
  graph: GraphReader,
  db: Queryable,
  scope: SearchScope,
  o: SearchOverride,
  limit: number,
) {
  const rows = await graph.overrideMatches(db, {
    organizationId: scope.organizationId,
    namespaceKey: scope.namespaceId ?? null,
    sourceLabel: o.pattern.source_label,
    relationshipType: o.pattern.relationship_type,
    targetLabel: o.pattern.target_label,
    direction: o.pattern.direction,
    filters: o.filters ?? [],
  });
  const raw = new Map<string, number>();
  for (const r of rows) raw.set(r.memory_id, (raw.get(r.memory_id) ?? 0) + 1);
  const visible = await visibleMemories(db, scope, [...raw.keys()]);
  const scores: Ranked = new Map(
    [...raw.entries()]
      .filter(([id]) => visible.has(id))
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit),
  );
  const nodes = new Map<string, NodeRow>();
  for (const r of rows) if (scores.has(r.memory_id)) for (const n of [r.source, r.target]) nodes.set(n.id, n);
  return { scores, nodes: [...nodes.values()].map((n) => nodeView(n, o.return_properties)) };
}
