/**
 * Batch throughput of background processing (issue: durable background processing): for each
 * store, POST a batch of BATCH_N (1000) memories with a webhook, and measure
 *   accept   = the batch request (validation, embedding, storing, enqueueing),
 *   process  = from the response to the batch.completed webhook (every memory processed),
 *   total    = from the request to the webhook.
 * Prints the median of BATCH_RUNS runs per store, each on a fresh store.
 *   npm run bench:batch     (BENCH_DATABASE_URL defaults to the local test server; BATCH_STORES=pglite,postgres)
 */
import { startReceiver } from '../test/webhook-receiver.ts';
import { MODELS_CACHE } from '../test/harness.ts';
import { sleep } from '../test/wait.ts';
import { syntheticMemories } from './lib/corpus.ts';
import { withFreshServer } from './lib/server.ts';
import { median } from './stats.ts';

const BASE = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const N = Number(process.env.BATCH_N || 1000);
const RUNS = Number(process.env.BATCH_RUNS || 3);
const STORES = (process.env.BATCH_STORES || 'pglite,postgres').split(',');
const GROUP = Number(process.env.BATCH_GROUP || 50);

const receiver = await startReceiver();
const memories = syntheticMemories(N, 20);
const rows: string[] = [];
for (const store of STORES) {
  const runs: { accept: number; process: number; total: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const path = `/${store}-${run}`;
    const r = await withFreshServer(
      store === 'postgres' ? BASE : undefined,
      async (server, key) => {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/v1/memory/batch`, {
          method: 'POST',
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
          body: JSON.stringify({ memories, batch_size: GROUP, webhook_url: receiver.url(path) }),
        });
        const body = await res.json();
        const t1 = performance.now();
        if (body.total_successful !== N)
          throw new Error(`stored ${body.total_successful} of ${N}: ${JSON.stringify(body.errors?.[0])}`);
        while (receiver.at(path).length === 0) {
          if (performance.now() - t1 > 600_000) throw new Error('no batch.completed webhook within 10 minutes');
          await sleep(5);
        }
        // The webhook can arrive before the response (PGlite: the in-process worker keeps pace): 0 then.
        const t2 = Math.max(receiver.at(path)[0].receivedAt, t1);
        const hook = receiver.at(path)[0].body;
        if (hook.event !== 'batch.completed' || hook.counts.completed !== N)
          throw new Error(`unexpected webhook ${JSON.stringify(hook)}`);
        return { accept: t1 - t0, process: t2 - t1, total: t2 - t0 };
      },
      { WEBHOOK_ALLOW_PRIVATE: 'true', MODELS_CACHE_DIR: MODELS_CACHE },
    );
    runs.push(r);
    console.error(
      `${store} run ${run + 1}: accept ${(r.accept / 1000).toFixed(2)} s, process ${(r.process / 1000).toFixed(2)} s`,
    );
  }
  const m = (k: 'accept' | 'process' | 'total') => median(runs.map((r) => r[k])) / 1000;
  const processed =
    m('process') >= 1
      ? `${m('process').toFixed(2)} s (${(N / m('process')).toFixed(0)}/s)`
      : `${(m('process') * 1000).toFixed(0)} ms`;
  rows.push(
    `| ${store} | ${N} | ${m('accept').toFixed(2)} s (${(N / m('accept')).toFixed(0)}/s) | ${processed} | ` +
      `${m('total').toFixed(2)} s |`,
  );
}
await receiver.close();
console.log(`\nBatch of ${N} memories, groups of ${GROUP}, median of ${RUNS} runs:\n`);
console.log(
  '| store | memories | accept (request) | accepted → all completed (webhook) | total |\n|---|---|---|---|---|',
);
for (const r of rows) console.log(r);
