/**
 * What an Idempotency-Key adds to a write (src/platform/http/idempotency.ts): POST /v1/memory
 * (skip_background_processing, so no job runs meanwhile) through `app.inject` on each store,
 * without the header, with a fresh key (the claim and the recorded answer: two statements), and
 * a replay of an answered key (the claim that fails, the read, the answer). The three kinds of
 * request are interleaved so drift hits each alike. Prints medians and p95s; no assertions.
 *
 *   npm run bench:idempotency
 *
 * Env: IDEMPOTENCY_RUNS (requests per cell, default 300).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startApp, testStores } from '../test/harness.ts';
import { median, percentile } from './stats.ts';

const RUNS = Number(process.env.IDEMPOTENCY_RUNS || 300);
const ms = (v: number) => v.toFixed(2);

for (const store of testStores) {
  const t = await startApp(store);
  try {
    const send = async (content: string, key?: string) => {
      const start = performance.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/memory?skip_background_processing=true',
        headers: { 'x-api-key': t.key, ...(key ? { 'idempotency-key': key } : {}) },
        payload: { content, external_user_id: 'bench' },
      });
      const took = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
      return took;
    };
    const replayKey = randomUUID();
    await send('The replayed memory.', replayKey);
    for (let i = 0; i < 20; i++) await send(`Warm-up ${i}.`); // model and statement caches
    const cells = { none: [] as number[], fresh: [] as number[], replay: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      cells.none.push(await send(`Memory ${i} without a key.`));
      cells.fresh.push(await send(`Memory ${i} with a key.`, randomUUID()));
      cells.replay.push(await send('The replayed memory.', replayKey));
    }
    console.log(`${store.name}: POST /v1/memory, ${RUNS} requests per cell (ms, median / p95)`);
    for (const [name, v] of Object.entries(cells))
      console.log(`  ${name.padEnd(7)} ${ms(median(v))} / ${ms(percentile(v, 95))}`);
    const share = (100 * median(cells.replay)) / median(cells.none);
    console.log(`  a key adds ${ms(median(cells.fresh) - median(cells.none))} ms`);
    console.log(`  a replay takes ${ms(median(cells.replay))} ms (${share.toFixed(0)} % of a write)`);
  } finally {
    await t.close();
  }
}
