/**
 * Fusion tuning on the LoCoMo dev split, in-process: ingest once through the memories
 * service (same code path as the HTTP API, minus HTTP), then evaluate many fusion
 * settings against the same store. Prints R@5/10/25 overall per setting, R@10 per category
 * and per conversation (for leave-one-conversation-out choices). Unset settings are the config's.
 *
 *   npx tsx bench/tune-locomo.ts '[{}, {"nb":0}, {"bm25":0.5,"dense":0.25,"dense2":0.25}, ...]'
 */
import type { GraphMemory } from '../src/modules/graph/index.ts';
import { graphCounts } from '../src/modules/graph/graph.store.ts';
import { inProcessStack, type StudySettings } from './lib/inprocess.ts';
import { loadLocomo, recallAt, turnMemories, userOf } from './lib/locomo-data.ts';

const FILE = process.env.LOCOMO_FILE || '/work/shared/data/locomo/locomo-dev.json';
const settings: StudySettings[] = JSON.parse(process.argv[2] || '[{}]');

const { db, actor, graph, memories, searchWith } = await inProcessStack();

const convs = loadLocomo(FILE);
const t0 = performance.now();
for (const c of convs) {
  const items = turnMemories(c);
  for (let i = 0; i < items.length; i += 100) await memories.addBatch(actor, items.slice(i, i + 100), {}, 50);
}
console.error(`ingested in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
if (process.env.TUNE_GRAPH === '1') {
  // The graph as the worker would build it, without a worker: every memory through the builder.
  const t1 = performance.now();
  const ids = await db.query<GraphMemory>('SELECT * FROM memories ORDER BY created_at, id');
  for (const memory of ids) await graph.builder.build(memory);
  const size = await graphCounts(db, actor.organizationId);
  const [{ mentions }] = await db.query<{ mentions: number }>(`SELECT count(*)::int AS mentions FROM memory_nodes`);
  console.error(
    `graph built for ${ids.length} memories in ${((performance.now() - t1) / 1000).toFixed(1)} s: ` +
      `${size.nodes} nodes, ${size.edges} relationships, ${mentions} memory-node links ` +
      `(${mentions - size.nodes} mentions reused an existing node)`,
  );
}

for (const s of settings) {
  // The service's configured defaults, with no graph unless a setting names it.
  const search = searchWith({ graph: 0, ...s });
  const sums = [0, 0, 0];
  const byCategory = new Map<number, { sum: number; n: number }>();
  const byConv: string[] = [];
  let n = 0;
  for (const c of convs) {
    let convSum = 0;
    for (const q of c.questions) {
      const r = await search.search(
        actor,
        { query: q.question, external_user_id: userOf(c), enable_agentic_graph: (s.graph ?? 0) > 0 } as any,
        25,
      );
      const ranked = r.memories.map((m) => (m.customMetadata as any).dia_id as string);
      [5, 10, 25].forEach((k, i) => (sums[i] += recallAt(q.evidence, ranked, k)));
      const cat = byCategory.get(q.category) ?? { sum: 0, n: 0 };
      cat.sum += recallAt(q.evidence, ranked, 10);
      cat.n++;
      byCategory.set(q.category, cat);
      convSum += recallAt(q.evidence, ranked, 10);
      n++;
    }
    byConv.push(`${c.sampleId}:${((100 * convSum) / c.questions.length).toFixed(1)}`);
  }
  const cats = [...byCategory.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k}:${((100 * v.sum) / v.n).toFixed(1)}`)
    .join(' ');
  console.log(
    JSON.stringify(s),
    sums.map((v) => ((100 * v) / n).toFixed(1)).join(' / '),
    `| R@10 by category ${cats}`,
    `| by conversation ${byConv.join(' ')}`,
  );
}
await db.close();
