/**
 * Train the svc_max ranker (src/modules/search/ranker.ts) on the training data we have —
 * SciFact's train split (qrels/train.tsv) and the LoCoMo dev split — through the HTTP API like
 * any client: a server on a fresh store, both corpora ingested with policy.transform_embedding
 * (so the candidates carry stored artifacts, as they will in production), every training query
 * searched with svc_max and `return_features`, then a pairwise linear model fitted.
 *
 * Reported by cross-validation only: 5 folds by query within each set, and across sets (fit on
 * one, test on the other). The committed weights are then fitted on everything.
 *
 *   npx tsx scripts/train-ranker.ts                  (ingest, collect features, train, write the weights)
 *   TRAIN_FEATURES=/tmp/ranker-features.json npx tsx scripts/train-ranker.ts   (reuse collected features)
 *   TRAIN_WRITE=0 …                                  (report only)
 */
import fs from 'node:fs';
import path from 'node:path';
import { FEATURE_NAMES } from '../src/modules/search/features.ts';
import { memoryApi } from '../bench/lib/client.ts';
import { loadLocomo, turnMemories, userOf } from '../bench/lib/locomo-data.ts';
import { mapConcurrent } from '../bench/lib/pool.ts';
import { loadAbstracts, SCIFACT_DIR } from '../bench/lib/scifact.ts';
import { withFreshServer } from '../bench/lib/server.ts';
import { foldOf, mrrAt, ndcgAt, rankGroup, trainPairwise, type Group } from './lib/rank-train.ts';

const CACHE = process.env.TRAIN_FEATURES || '/tmp/ranker-features.json';
const LOCOMO = process.env.LOCOMO_FILE || '/work/shared/data/locomo/locomo-dev.json';
const OUT = path.resolve(import.meta.dirname, '../src/modules/search/ranker.weights.json');
const DEPTH = 100;

type Hit = {
  metadata?: { customMetadata?: Record<string, unknown> };
  customMetadata?: Record<string, unknown>;
  ranker_features?: Record<string, number>;
};
const custom = (m: Hit) => m.metadata?.customMetadata ?? m.customMetadata ?? {};

function trainQueries(): { id: string; text: string; relevant: Set<string> }[] {
  const texts = new Map(
    fs
      .readFileSync(path.join(SCIFACT_DIR, 'queries.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const q = JSON.parse(l) as { _id: string; text: string };
        return [q._id, q.text] as const;
      }),
  );
  const rel = new Map<string, Set<string>>();
  for (const row of fs.readFileSync(path.join(SCIFACT_DIR, 'qrels/train.tsv'), 'utf8').split('\n').slice(1)) {
    const [q, d, s] = row.trim().split('\t');
    if (q && Number(s) > 0) (rel.get(q) ?? rel.set(q, new Set()).get(q)!).add(d);
  }
  return [...rel].map(([id, relevant]) => ({ id, text: texts.get(id)!, relevant }));
}

async function collect(): Promise<(Group & { total: number })[]> {
  return withFreshServer(process.env.BENCH_DATABASE_URL || undefined, async (server, key) => {
    const api = memoryApi(server.url, key, { process: true });
    const policy = (domain_id: string) => ({ transform_embedding: { mode: 'auto', domain_id } });
    const abstracts = loadAbstracts().map((a) => ({
      content: a.title ? `${a.title}\n\n${a.text}` : a.text,
      type: 'text' as const,
      external_user_id: 'scifact',
      metadata: { customMetadata: { doc_id: a.id } },
      policy: policy('scifact'),
    }));
    const convs = loadLocomo(LOCOMO);
    const turns = convs.flatMap((c) => turnMemories(c).map((m) => ({ ...m, policy: policy('general') })));
    const t0 = performance.now();
    await api.addAll([...abstracts, ...turns] as never, 2);
    await api.waitProcessed(3_600_000);
    console.error(
      `ingested and processed ${abstracts.length + turns.length} memories ` +
        `in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    const search = async (query: string, user: string, domain: string) =>
      (await api.search(
        {
          query,
          external_user_id: user,
          reranking_config: { reranking_provider: 'svc_max', domain_id: domain, return_features: true },
        },
        DEPTH,
      )) as Hit[];
    const rows = (hits: Hit[]) => hits.map((h) => FEATURE_NAMES.map((f) => h.ranker_features?.[f] ?? 0));
    const sci = await mapConcurrent(trainQueries(), 4, async (q) => {
      const hits = await search(q.text, 'scifact', 'scifact');
      const labels = hits.map((h) => (q.relevant.has(String(custom(h).doc_id)) ? 1 : 0));
      return { id: `scifact:${q.id}`, set: 'scifact', rows: rows(hits), labels, total: q.relevant.size };
    });
    const questions = convs.flatMap((c) => c.questions.map((q, i) => ({ c, q, i })));
    const loc = await mapConcurrent(questions, 4, async ({ c, q, i }) => {
      const hits = await search(q.question, userOf(c), 'general');
      const evidence = new Set(q.evidence);
      const labels = hits.map((h) => (evidence.has(String(custom(h).dia_id)) ? 1 : 0));
      return { id: `locomo:${c.sampleId}:${i}`, set: 'locomo', rows: rows(hits), labels, total: evidence.size };
    });
    return [...sci, ...loc];
  });
}

/** The metric of a set: nDCG@10 (SciFact), recall@10 (LoCoMo evidence). */
function metric(g: Group & { total: number }, order: number[]): number {
  if (g.set === 'locomo') return order.slice(0, 10).filter((i) => g.labels[i] > 0).length / Math.max(1, g.total);
  return g.set === 'cosqa' ? mrrAt(order, g.labels) : ndcgAt(order, g.labels, g.total);
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const firstStage = (g: Group) => g.rows.map((_, i) => i);

type Labelled = Group & { total: number };
const groups: Labelled[] = fs.existsSync(CACHE)
  ? (JSON.parse(fs.readFileSync(CACHE, 'utf8')) as Labelled[])
  : await collect();
fs.writeFileSync(CACHE, JSON.stringify(groups));
console.error(`features of ${groups.length} queries in ${CACHE}`);

const report: Record<string, unknown> = {};
for (const set of ['scifact', 'locomo']) {
  const mine = groups.filter((g) => g.set === set);
  const cv: number[] = [];
  for (let f = 0; f < 5; f++) {
    const train = groups.filter((g) => !(g.set === set && foldOf(g.id, 5) === f));
    const w = trainPairwise(train);
    for (const g of mine.filter((x) => foldOf(x.id, 5) === f)) cv.push(metric(g, rankGroup(g, w)));
  }
  const other = trainPairwise(groups.filter((g) => g.set !== set));
  report[set] = {
    queries: mine.length,
    first_stage: mean(mine.map((g: Labelled) => metric(g, firstStage(g)))),
    cv5_all_sets: mean(cv),
    trained_on_other_set_only: mean(mine.map((g: Labelled) => metric(g, rankGroup(g, other)))),
  };
}
console.log(JSON.stringify(report, null, 2));
const weights = trainPairwise(groups);
console.log(FEATURE_NAMES.map((f, j) => `${f} ${weights[j].toFixed(3)}`).join('\n'));
if (process.env.TRAIN_WRITE !== '0') {
  const trained = {
    sets: ['scifact qrels/train.tsv', 'locomo dev'],
    queries: groups.length,
    loss: 'pairwise logistic, L2 1e-3',
    cross_validation: report,
    date: new Date().toISOString().slice(0, 10),
  };
  fs.writeFileSync(
    OUT,
    JSON.stringify({ features: FEATURE_NAMES, weights: weights.map((w) => Number(w.toFixed(5))), trained }, null, 2) +
      '\n',
  );
  console.error(`wrote ${OUT}`);
}
