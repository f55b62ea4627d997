/**
 * Fusion tuning on the LoCoMo dev split, in-process: ingest once through the memories
 * service (same code path as the HTTP API, minus HTTP), then evaluate many fusion
 * settings against the same store. Prints R@5/10/25 overall per setting.
 *
 *   npx tsx bench/tune-locomo.ts '[{"bm25":0.5,"dense":0.25,"dense2":0.25}, ...]'
 */
import { openPglite } from '../src/platform/db/pglite.ts';
import { migrate } from '../src/platform/db/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { bootstrap } from '../src/modules/organizations/bootstrap.ts';
import { createMemoriesModule, memoryReader } from '../src/modules/memories/index.ts';
import { committedRanker, createSearchModule } from '../src/modules/search/index.ts';
import { embeddersFromConfig } from '../src/platform/models/index.ts';
import { ensureVectorIndex } from '../src/modules/search/dense.store.ts';
import { createAuthModule } from '../src/modules/auth/index.ts';
import { apiKeyStore } from '../src/modules/api-keys/index.ts';
import { userDirectory } from '../src/modules/users/index.ts';
import { namespaceAccess } from '../src/modules/namespaces/index.ts';
import { createWebhooksModule } from '../src/modules/webhooks/index.ts';
import { createSchemasModule } from '../src/modules/schemas/index.ts';
import { createGraphModule, graphReader, type GraphMemory } from '../src/modules/graph/index.ts';
import { graphCounts } from '../src/modules/graph/graph.store.ts';
import { createEventPublisher } from '../src/platform/events/index.ts';
import { createLocalExtractor } from '../src/platform/models/extractor.local.ts';
import { loadConfig } from '../src/config.ts';
import { loadLocomo, recallAt, turnMemories, userOf } from './lib/locomo-data.ts';

const FILE = process.env.LOCOMO_FILE || '/work/shared/data/locomo/locomo-dev.json';
const settings: Record<string, number>[] = JSON.parse(process.argv[2] || '[{"bm25":0.5,"dense":0.25,"dense2":0.25}]');

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' } as Record<string, string>);
const db = await openPglite();
await migrate(db);
const key = 'ek_org_tuning_key_0123456789';
await bootstrap(db, { bootstrapKey: key, dataDir: '/tmp/engram-tune', log: createLogger('silent') });
const embedders = embeddersFromConfig(config);
await ensureVectorIndex(db, 'embedding', embedders.index.primary.id, embedders.index.primary.dimensions);
if (embedders.index.secondary)
  await ensureVectorIndex(db, 'embedding2', embedders.index.secondary.id, embedders.index.secondary.dimensions);
const actor = await createAuthModule({ db, keys: apiKeyStore, users: userDirectory }).authenticator.authenticate({
  'x-api-key': key,
});
const webhooks = createWebhooksModule({ allowPrivate: true, maxAttempts: 1, timeoutMs: 1000 });
const schemas = createSchemasModule({ db, namespaces: namespaceAccess });
const graph = createGraphModule({ db, extractor: createLocalExtractor(), schemas });
const memories = createMemoriesModule({
  db,
  embedders: embedders.index,
  maxContentBytes: 15000,
  publish: createEventPublisher([webhooks.onEvent]),
  webhooks: webhooks.webhooks,
  users: userDirectory,
  namespaces: namespaceAccess,
  planGraph: graph.planFor,
}).service;

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
  const search = createSearchModule({
    db,
    memories: memoryReader,
    users: userDirectory,
    graph: graphReader,
    embedders: embedders.query,
    weights: { bm25: s.bm25 ?? 0.5, dense: s.dense ?? 0.25, dense2: s.dense2 ?? 0.25, graph: s.graph ?? 0 },
    bm25: { k1: s.k1 ?? 0.9, b: s.b ?? 0.4 },
    candidates: s.candidates ?? 100,
    neighbourWeight: s.nb ?? 0,
    extractor: createLocalExtractor(),
    // The fused order only: this script tunes the first stage.
    rerank: { ranker: committedRanker() },
    available: { ranker_a: false, ranker_b: false, graph: false },
    rerankDepth: 100,
  }).service;
  const sums = [0, 0, 0];
  const byCategory = new Map<number, { sum: number; n: number }>();
  let n = 0;
  for (const c of convs) {
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
      n++;
    }
  }
  const cats = [...byCategory.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k}:${((100 * v.sum) / v.n).toFixed(1)}`)
    .join(' ');
  console.log(JSON.stringify(s), sums.map((v) => ((100 * v) / n).toFixed(1)).join(' / '), `| R@10 by category ${cats}`);
}
await db.close();
