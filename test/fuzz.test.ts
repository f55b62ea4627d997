/**
 * Fuzz every operation of the committed OpenAPI document (docs/openapi.json) with fast-check
 * (issue #17). Each request is random or malformed — junk and boundary path ids, wrong-typed
 * and extreme query values, documented bodies mutated (wrong types, missing and extra fields,
 * huge strings, deep nesting, NUL, lone surrogates, 1e999), wrong content types, bad
 * credentials — with a few valid-looking ones among them. Every answer must come within
 * FUZZ_TIMEOUT_MS, must not be a 5xx (but a 501 its operation documents), and a 4xx must be the
 * error envelope. Afterwards the sentinel memories are unchanged, /health answers and search
 * finds them.
 *
 *   FUZZ_SEED   fast-check seed (default below; printed, and shown with any counterexample)
 *   FUZZ_RUNS   requests per operation (default 12: ~650 requests with the concurrent ones;
 *               about 15 s of fuzzing after ~30-45 s of start-up on a busy 2-core machine)
 *   FUZZ_TIMEOUT_MS   the bound on one request (default 5000)
 *   FUZZ_KEEP_GOING=1 report every failing request of an operation, not only the first (shrunk) one
 *   FUZZ_TRACE=1      print every request's first line and answer
 *
 * Not fuzzed: the WebSocket status streams (/ws/memory-status/...) — upgrades cannot be made
 * with `inject`, and they are hidden from the document anyway; /openapi.json and /docs are not
 * operations of the document. The admin API is in the document only when ADMIN_API_KEY is set,
 * so its operations are read from the fuzzed app's own /openapi.json (it runs with an admin key).
 */
import { describe, it, after } from 'node:test';
import fc from 'fast-check';
import { operationsOf, readDocument, type Operation } from './fuzz-openapi.ts';
import { requestsFor, type FuzzRequest } from './fuzz-requests.ts';
import { checkAnswer, describeRequest, send } from './fuzz-send.ts';
import { checkIntact, startWorld } from './fuzz-world.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 1717);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const TIMEOUT_MS = Number(process.env.FUZZ_TIMEOUT_MS ?? 5000);
const KEEP_GOING = process.env.FUZZ_KEEP_GOING === '1';
const TRACE = process.env.FUZZ_TRACE === '1';
/**
 * Shrinking replays requests (a hang costs the whole timeout each time): bounded in count and,
 * for each property, in time — past the limit fast-check reports the smallest failure so far.
 */
const MAX_SHRINKS = Number(process.env.FUZZ_MAX_SHRINKS ?? 40);
const TIME_LIMIT_MS = 60_000;

const world = await startWorld();
const committed = operationsOf(readDocument());
const live = operationsOf((await world.app.inject({ method: 'GET', url: '/openapi.json' })).json());
const admin = live.filter((op) => op.security === 'admin' && !committed.some((c) => c.label === op.label));
const operations = [...committed, ...admin];
if (committed.length === 0 || admin.length === 0)
  throw new Error(`nothing to fuzz: ${committed.length} documented operations, ${admin.length} admin operations`);
// The document leaves batch items open (`{}`: each is validated on its own as a POST /v1/memory
// body); the fuzz builds them from that body's schema so a batch can get past validation.
const addMemory = operations.find((op) => op.label === 'POST /v1/memory')?.bodies[0]?.schema;
for (const body of operations.find((op) => op.label === 'POST /v1/memory/batch')?.bodies ?? [])
  if (addMemory && body.schema.properties?.memories)
    body.schema = {
      ...body.schema,
      properties: { ...body.schema.properties, memories: { ...body.schema.properties.memories, items: addMemory } },
    };

console.log(`fuzz: seed ${SEED} (FUZZ_SEED), ${RUNS} runs per operation (FUZZ_RUNS) × ${operations.length} operations`);

/** Answers by operation and status, printed at the end: how far the fuzz got (401s reach no handler). */
const seen = new Map<string, Map<number, number>>();
const byLabel = new Map(operations.map((op) => [op.label, op]));

/** Requests sent at once; each answer timed and checked. A message says what was sent and what the server logged. */
async function probe(steps: { label: string; req: FuzzRequest }[]): Promise<void> {
  const results = await Promise.all(
    steps.map(async ({ label, req }) => {
      const op = byLabel.get(label)!;
      try {
        return { op, req, sent: await send(world, op, req, TIMEOUT_MS) };
      } catch (err) {
        throw new Error(`${(err as Error).message}\n  ${describeRequest(op, req)}`);
      }
    }),
  );
  for (const { op, req, sent } of results) {
    for (const res of sent.answers) {
      if (TRACE)
        console.log(`${res.statusCode} ${describeRequest(op, req).split('\n')[0]} → ${res.body.slice(0, 400)}`);
      const counts = seen.get(op.label) ?? new Map<number, number>();
      seen.set(op.label, counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1));
      try {
        checkAnswer(world, res, sent.logFrom, op.documented5xx);
      } catch (err) {
        const others = steps.length > 1 ? `\n  (sent at once with: ${steps.map((s) => s.label).join(', ')})` : '';
        throw new Error(`${describeRequest(op, req)}${others}\n  ${(err as Error).message}`);
      }
    }
  }
}

/** One entry per distinct failure: the status line and the first logged error line, ids masked. */
const signature = (message: string) =>
  message
    .split('\n')
    .filter((l) => /answered|server log|^\s{4}\S/.test(l))
    .slice(0, 3)
    .join(' | ')
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>');

/** Run `toSteps` over `numRuns` generated values with the fixed seed; with FUZZ_KEEP_GOING, collect every failure. */
async function fuzz<T>(
  arb: fc.Arbitrary<T>,
  toSteps: (v: T) => { label: string; req: FuzzRequest }[],
  numRuns: number,
) {
  const failures = new Map<string, string>();
  await fc.assert(
    fc.asyncProperty(fc.limitShrink(arb, MAX_SHRINKS), async (value) => {
      try {
        await probe(toSteps(value));
      } catch (err) {
        if (!KEEP_GOING) throw err;
        const message = (err as Error).message;
        if (!failures.has(signature(message))) failures.set(signature(message), message);
      }
    }),
    { seed: SEED, numRuns, includeErrorInReport: true, plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS)] },
  );
  if (failures.size) throw new Error([...failures.values()].join('\n\n'));
}

describe(`fuzz: every operation of docs/openapi.json (seed ${SEED})`, () => {
  after(async () => {
    const line = (c: Map<number, number>) => [...c].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    console.log(`fuzz answers:\n${[...seen].map(([op, c]) => `  ${op}: ${line(c).join(' ')}`).join('\n')}`);
    await world.close();
  });

  function fuzzOperation(op: Operation): void {
    it(`${op.label} (${op.security})`, async () => {
      await fuzz(requestsFor(op, world.pools), (req) => [{ label: op.label, req }], RUNS);
    });
  }

  const deletions = operations.filter((op) => op.method === 'DELETE');
  for (const op of operations.filter((o) => !deletions.includes(o))) fuzzOperation(op);

  // Two to four requests of any operations at once: update/delete and create/create races.
  it('requests of different operations at once', async () => {
    const step = fc.oneof(
      ...operations.map((op) => requestsFor(op, world.pools).map((req) => ({ label: op.label, req }))),
    );
    await fuzz(fc.array(step, { minLength: 2, maxLength: 4 }), (steps) => steps, RUNS * 3);
  });

  // Deletions last, so the reads and writes above still find the seeded objects.
  for (const op of deletions) fuzzOperation(op);

  it('afterwards: sentinel memories unchanged, /health answers, search finds them', async () => {
    await checkIntact(world);
  });
});
