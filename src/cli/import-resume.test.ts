/**
 * A JSONL import killed with SIGKILL midway (after the checkpoint shows progress, with a request
 * in flight), then resumed: afterwards exactly N memories exist for the user, each item once.
 * On both stores, with the API alone serving (an import is done when the server has accepted and
 * stored every item; processing — embedding for search, the graph — is the worker's, later, and
 * not what is tested):
 * - PostgreSQL: a server process with ROLES=api, 10,000 items.
 * - PGlite: the app in this process over an embedded store, no worker started (a PGlite server
 *   process always runs its worker, which would process the memories while they arrive), 10,000
 *   items too.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scenarioStore, startApp, testStores, type TestApp } from '../../test/harness.ts';
import { startServer, type Server } from '../../test/process.ts';
import { runCli, spawnCli } from '../../test/cli-run.ts';
import { fakeJsonServer } from '../../test/fake-json-server.ts';

const USER = 'resume-user';
const CHUNK = 500;

/**
 * Items on each store. PGlite imported 3,000 while USE lite embedded them in this process (50
 * items/s); with the local embeddings server both import ~250 items/s, so both import 10,000.
 */
const N_ITEMS = 10_000;

/**
 * Embeddings from a local server speaking OpenAI's `/v1/embeddings` (the adapter `EMBEDDER=openai`
 * uses), with no secondary embedder: what is tested is the import's resume, not the embedder, and
 * USE lite and GloVe embedding the 13,000 items were most of this file's 231 s in the suite. Each
 * vector is made from the text's characters, so the rows stored are the text's own.
 */
const DIMS = 16;
const vectorOf = (text: string) => {
  const v = new Array<number>(DIMS).fill(0);
  for (let i = 0; i < text.length; i++) v[(text.charCodeAt(i) + i) % DIMS] += 1;
  return v;
};
const embeddings = fakeJsonServer<{ model: string; input: string[] }>(() => (seen) => ({
  status: 200,
  body: {
    object: 'list',
    model: seen.body.model,
    data: seen.body.input.map((t, index) => ({ object: 'embedding', index, embedding: vectorOf(t) })),
    usage: { prompt_tokens: 0, total_tokens: 0 },
  },
}));
let embedderEnv: Record<string, string> = {};
before(async () => {
  const url = await embeddings.start();
  embedderEnv = {
    EMBEDDER: 'openai',
    EMBEDDINGS_URL: url,
    EMBEDDINGS_MODEL: 'resume-embed',
    EMBEDDINGS_DIMENSIONS: String(DIMS),
    EMBEDDER_SECONDARY: 'none',
  };
});
after(() => embeddings.stop());

interface Target {
  url: string;
  key: string;
  close(): Promise<void>;
}

const stores: { name: 'postgres' | 'pglite'; n: number; label: string; open(): Promise<Target> }[] = [
  {
    name: 'postgres',
    n: N_ITEMS,
    label: 'PostgreSQL server process, ROLES=api',
    async open() {
      const scenario = await scenarioStore('engram-cli-resume-');
      const server: Server = await startServer({ ...scenario.env, ...embedderEnv, LOG_LEVEL: 'warn', ROLES: 'api' });
      return {
        url: server.url,
        key: scenario.key,
        close: async () => {
          await server.stop();
          await scenario.cleanup();
        },
      };
    },
  },
  {
    name: 'pglite',
    n: N_ITEMS,
    label: 'PGlite, in-process app without a worker',
    async open() {
      const t: TestApp = await startApp(
        testStores.find((s) => s.name === 'pglite')!,
        { env: embedderEnv },
      );
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      return { url, key: t.key, close: () => t.close() };
    },
  },
];

for (const store of stores) {
  const N = store.n;
  describe(`engram import: killed and resumed (${store.name})`, () => {
    let target: Target;
    let dir: string;

    before(async () => {
      target = await store.open();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-import-'));
    });
    after(async () => {
      await target?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Every memory of USER through the listing, page by page. */
    async function listAll(): Promise<{ id: string; metadata: Record<string, unknown> }[]> {
      const all: { id: string; metadata: Record<string, unknown> }[] = [];
      let cursor = '';
      do {
        const q = new URLSearchParams({ external_user_id: USER, limit: '200', ...(cursor ? { cursor } : {}) });
        const res = await fetch(`${target.url}/v1/memory?${q}`, { headers: { 'x-api-key': target.key } });
        assert.equal(res.status, 200);
        const page = (await res.json()) as { data: { memories: typeof all }; next_cursor: string | null };
        all.push(...page.data.memories);
        cursor = page.next_cursor ?? '';
      } while (cursor);
      return all;
    }

    it('neither loses nor duplicates an item', { timeout: 900_000 }, async (t) => {
      const file = path.join(dir, 'big.jsonl');
      const topics = ['travel', 'food', 'work', 'music', 'health', 'family', 'sport', 'books'];
      fs.writeFileSync(
        file,
        Array.from({ length: N }, (_, i) =>
          JSON.stringify({
            content: `Note ${i}: the user mentioned ${topics[i % 8]} item ${i * 7919} on day ${i % 365}`,
            metadata: { n: i, topic: topics[i % 8] },
          }),
        ).join('\n') + '\n',
      );
      const checkpoint = path.join(dir, 'big.jsonl.engram-import.json');
      const env = { ENGRAM_URL: target.url, ENGRAM_API_KEY: target.key };
      const acknowledged = () =>
        fs.existsSync(checkpoint)
          ? (JSON.parse(fs.readFileSync(checkpoint, 'utf8')) as { acknowledged: number }).acknowledged
          : 0;

      const t0 = performance.now();
      const first = spawnCli(['import', file, '--user', USER, '--chunk-size', String(CHUNK)], env);
      const exited = new Promise<NodeJS.Signals | null>((r) => first.on('exit', (_code, signal) => r(signal)));
      // Kill once two chunks are acknowledged and the next is on its way (half-way through its request).
      const deadline = Date.now() + 600_000;
      while (acknowledged() < 2 * CHUNK) {
        assert.ok(Date.now() < deadline, 'the first run made no progress');
        assert.equal(first.exitCode, null, 'the first run ended before it was killed');
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 4000));
      first.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');
      const firstSeconds = (performance.now() - t0) / 1000;
      const killedAt = acknowledged();
      assert.ok(killedAt > 0 && killedAt < N, `killed at ${killedAt}`);

      const resumed = await runCli(['--json', 'import', file, '--user', USER], env);
      assert.equal(resumed.code, 0, resumed.stderr);
      const summary = JSON.parse(resumed.stdout) as {
        resumed_from: number;
        imported: number;
        skipped: number;
        refused: number;
        seconds: number;
        items_per_second: number;
      };
      assert.equal(summary.resumed_from, killedAt);
      assert.equal(summary.refused, 0);
      assert.equal(acknowledged(), N);

      const stored = await listAll();
      const keys = new Set(stored.map((m) => String(m.metadata.import_key)));
      const ns = new Set(stored.map((m) => Number(m.metadata.n)));
      assert.equal(stored.length, N, 'exactly N memories');
      assert.equal(keys.size, N, 'each import_key once');
      assert.equal(ns.size, N, 'each input line once');
      const totalSeconds = firstSeconds + summary.seconds;
      t.diagnostic(
        `killed at ${killedAt} acknowledged; resumed run: ${summary.skipped} already stored (the in-flight chunk), ` +
          `${summary.items_per_second} items/s; overall ${(N / totalSeconds).toFixed(1)} items/s ` +
          `(${N} items in ${totalSeconds.toFixed(1)} s over both runs, ${store.label}, chunks of ${CHUNK})`,
      );
    });
  });
}
