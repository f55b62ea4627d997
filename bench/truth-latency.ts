/**
 * What keeping memories true costs a write (docs/truth.md): POST /v1/memory
 * (skip_background_processing) through `app.inject` on each store, for one user who already has
 * TRUTH_EXISTING memories (varied texts, so the near-duplicate and fact lookups have neighbours
 * to look at), with the checks on (the default: exact and near duplicates, supersession) and off
 * (`dedupe: "off", supersede: "off"`). The two kinds are interleaved so drift hits each alike;
 * every content is new (nothing is folded). Prints medians and p95s; no assertions.
 *
 *   npm run bench:truth-latency
 *
 * Env: TRUTH_RUNS (requests per cell, default 200), TRUTH_EXISTING (default 1000).
 */
import { performance } from 'node:perf_hooks';
import { startApp, testStores } from '../test/harness.ts';
import { variedTexts } from './lib/varied-texts.ts';
import { median, percentile } from './stats.ts';

const RUNS = Number(process.env.TRUTH_RUNS || 200);
const EXISTING = Number(process.env.TRUTH_EXISTING || 1000);
const ms = (v: number) => v.toFixed(2);
const texts = variedTexts(EXISTING + 2 * RUNS + 20);

for (const store of testStores) {
  const t = await startApp(store);
  try {
    const user = 'truth-bench';
    for (let i = 0; i < EXISTING; i += 100) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/memory/batch?skip_background_processing=true',
        headers: { 'x-api-key': t.key },
        payload: {
          external_user_id: user,
          batch_size: 100,
          memories: texts.slice(i, i + 100).map((content) => ({ content })),
        },
      });
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    }
    let next = EXISTING;
    const send = async (checks: boolean) => {
      const content = `${texts[next++]} (${next})`;
      const start = performance.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/memory?skip_background_processing=true',
        headers: { 'x-api-key': t.key },
        payload: { content, external_user_id: user, ...(checks ? {} : { dedupe: 'off', supersede: 'off' }) },
      });
      const took = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
      return took;
    };
    for (let i = 0; i < 10; i++) await send(i % 2 === 0); // model and statement caches
    const cells = { on: [] as number[], off: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      cells.on.push(await send(true));
      cells.off.push(await send(false));
    }
    console.log(
      `${store.name}: POST /v1/memory with ${EXISTING} memories of the user, ${RUNS} per cell (ms, median / p95)`,
    );
    for (const [name, v] of Object.entries(cells))
      console.log(`  checks ${name.padEnd(4)} ${ms(median(v))} / ${ms(percentile(v, 95))}`);
    console.log(`  the checks add ${ms(median(cells.on) - median(cells.off))} ms at the median`);
  } finally {
    await t.close();
  }
}
