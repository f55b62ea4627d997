/**
 * The web console in a real browser (Debian's chromium driven by playwright-core) against a real
 * server process, on both stores: sign in with a key, add a memory, search it and see its
 * scores, draw the user's graph, and watch a batch, a document and a session settle over the status
 * WebSocket (no status route is polled). Screenshots of
 * each view go to SHOTS (printed as diagnostics) for a person to look at.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createConsoleModule } from './index.ts';
import { MODELS_CACHE, scenarioStore } from '../../../test/harness.ts';
import { startServer, type Server } from '../../../test/process.ts';
import { waitFor } from '../../../test/wait.ts';

const SHOTS = process.env.CONSOLE_SHOTS_DIR ?? path.join(os.tmpdir(), 'engram-console-shots');
const CHROMIUM = '/usr/bin/chromium';
const USER = 'console-user';

/** A PGlite server's environment: its own data directory and a known key. */
function pgliteStore() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-console-'));
  const key = `ek_org_${randomBytes(20).toString('hex')}`;
  const env = { DATA_DIR: dir, BOOTSTRAP_API_KEY: key, MODELS_CACHE_DIR: MODELS_CACHE, RATE_LIMIT_MAX: '0' };
  return { key, env, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const stores = {
  pglite: async () => pgliteStore(),
  postgres: () => scenarioStore('engram-console-pg-'),
};

describe('console module', () => {
  it('without a build, /console says how to build it (503); the OAuth link follows the configuration', async () => {
    const app = Fastify();
    await app.register(createConsoleModule({ oauth: true, root: path.join(os.tmpdir(), 'engram-no-console') }).routes);
    const page = await app.inject({ url: '/console' });
    assert.equal(page.statusCode, 503);
    assert.match(page.body, /npm run build/);
    assert.deepEqual((await app.inject({ url: '/console/settings.json' })).json(), { oauth_login: '/login' });
    await app.close();
  });
});

for (const [name, open] of Object.entries(stores)) {
  describe(`web console (${name})`, () => {
    let store: Awaited<ReturnType<typeof open>>;
    let server: Server;
    let browser: Browser;

    before(async () => {
      store = await open();
      server = await startServer({ ...store.env, LOG_LEVEL: 'warn' });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      fs.mkdirSync(SHOTS, { recursive: true });
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
      await store?.cleanup();
    });

    it('/console answers HTML; the API calls the console makes answer 401 without a key', async () => {
      for (const p of ['/console', '/console/']) {
        const res = await fetch(`${server.url}${p}`);
        assert.equal(res.status, 200, p);
        assert.match(res.headers.get('content-type') ?? '', /text\/html/);
        assert.match(await res.text(), /<div id="app">/);
      }
      const js = await fetch(`${server.url}/console/app.js`);
      assert.equal(js.status, 200);
      assert.match(js.headers.get('content-type') ?? '', /javascript/);
      assert.deepEqual(await (await fetch(`${server.url}/console/settings.json`)).json(), { oauth_login: null });
      const calls: [string, string][] = [
        ['GET', '/me'],
        ['GET', '/v1/memory'],
        ['POST', '/v1/memory'],
        ['POST', '/v1/memory/search'],
        ['POST', '/v1/memory/batch'],
        ['POST', '/v1/graphql'],
        ['GET', '/v1/namespace'],
      ];
      for (const [method, p] of calls) {
        const res = await fetch(`${server.url}${p}`, {
          method,
          headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
          body: method === 'POST' ? '{}' : undefined,
        });
        assert.equal(res.status, 401, `${method} ${p}`);
        assert.equal((await res.json()).code, 401);
      }
    });

    it(
      'sign in, add a memory, search it with scores, draw the graph, follow a batch live',
      { timeout: 90_000 },
      async (t) => {
        const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        // Which status streams the page opens, and which requests it makes (no status polling).
        const sockets: string[] = [];
        const requests: string[] = [];
        page.on('websocket', (ws) => sockets.push(new URL(ws.url()).pathname));
        page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
        const shot = async (what: string) => {
          const file = path.join(SHOTS, `${name}-${what}.png`);
          await page.screenshot({ path: file, fullPage: true });
          t.diagnostic(`screenshot: ${file}`);
        };
        try {
          await page.goto(`${server.url}/console`);
          await shot('1-signin');
          await page.getByLabel('API key').fill('ek_wrong');
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.getByRole('alert').waitFor();
          await page.getByLabel('API key').fill(store.key);
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.getByRole('navigation', { name: 'Views' }).waitFor();
          assert.equal(await page.evaluate(() => sessionStorage.getItem('engram.apiKey')), store.key);

          // Add a memory through the form; it appears in the list.
          const content = 'Alice Johnson works at Acme Corporation in Paris on the Orion telescope project.';
          await page.getByLabel('Content').fill(content);
          await page.locator('#add-user').fill(USER);
          await page.getByRole('button', { name: 'Add memory' }).click();
          const id = await page.locator('[role=status] code').textContent({ timeout: 15_000 });
          await page.locator(`tr[data-memory-id="${id}"]`).waitFor();
          await waitForMemory(server.url, store.key, id!);
          await shot('2-memories');

          // The search playground shows the memory with its per-signal scores.
          await openView(page, 'Search');
          await page.getByLabel('Query').fill('Where does Alice work?');
          await page.locator('#s-user').fill(USER);
          await page.getByRole('button', { name: 'Search', exact: true }).click();
          const result = page.locator(`li.result[data-memory-id="${id}"]`);
          await result.waitFor({ timeout: 20_000 });
          assert.match((await result.locator('.content').textContent())!, /Acme Corporation/);
          for (const score of ['relevance', 'similarity', 'bm25', 'dense']) {
            const text = await result.locator(`dd[data-score="${score}"]`).textContent();
            assert.match(text!, /^-?\d+\.\d{3}$/, `${score} shown as a number`);
          }
          await shot('3-search');

          // The graph view draws the user's nodes with cytoscape.
          await openView(page, 'Graph');
          await page.locator('#g-user').fill(USER);
          await page.getByRole('button', { name: 'Show graph' }).click();
          const graph = page.locator('.graph[data-nodes]');
          await graph.waitFor({ timeout: 15_000 });
          const nodes = Number(await graph.getAttribute('data-nodes'));
          assert.ok(nodes >= 2, `nodes drawn: ${nodes}`);
          assert.ok(await graph.locator('canvas').count(), 'cytoscape drew on a canvas');
          await shot('4-graph');

          // A batch submitted from the console completes, as pushed over the WebSocket.
          await openView(page, 'Batches, documents, sessions');
          await page
            .getByLabel('Memories, one per line')
            .fill('Bob repairs bicycles in Lyon.\nCarol teaches chemistry in Berlin.\nDan sails to Oslo every June.');
          await page.locator('#b-user').fill(USER);
          await page.getByRole('button', { name: 'Submit batch' }).click();
          await page.locator('[data-status="completed"]').waitFor({ timeout: 45_000 });
          assert.match((await page.locator('.status').first().textContent())!, /3 of 3 done/);

          // A document uploaded from the console is followed until it completes.
          await page.getByLabel('File (PDF, Word, HTML, Markdown, text)').setInputFiles({
            name: 'notes.md',
            mimeType: 'text/markdown',
            buffer: Buffer.from('# Field notes\n\nErin counts puffins on Skomer island every May.\n'),
          });
          await page.locator('#d-user').fill(USER);
          await page.getByRole('button', { name: 'Upload' }).click();
          await page.locator('[data-document-status="completed"]').waitFor({ timeout: 30_000 });

          // A session's messages and their processing, stored through the API and read in the console.
          for (const [role, text] of [
            ['user', 'Book me a table in Porto for Friday.'],
            ['assistant', 'Done: a table for two at 8 pm.'],
          ]) {
            const res = await fetch(`${server.url}/v1/messages`, {
              method: 'POST',
              headers: { 'X-API-Key': store.key, 'content-type': 'application/json' },
              body: JSON.stringify({ content: text, role, session_id: 'console-trip', external_user_id: USER }),
            });
            assert.ok(res.ok, await res.text());
          }
          await page.getByLabel('Session id').fill('console-trip');
          await page.getByRole('button', { name: 'Show session' }).click();
          await page.getByText('Book me a table in Porto for Friday.').waitFor();
          await page.getByText(/^2 messages; /).waitFor();
          // Both messages processed, as pushed by the session's stream.
          await page.getByText(/^2 messages; .*2 completed/).waitFor({ timeout: 45_000 });
          await shot('5-jobs');
          const upload = await page.locator('[data-upload-id]').getAttribute('data-upload-id');
          assert.ok(
            sockets.includes(`/ws/memory-status/document/${upload}`),
            `the document is followed over its WebSocket: ${sockets.join(', ')}`,
          );
          assert.ok(sockets.includes('/ws/memory-status/session/console-trip'), sockets.join(', '));
          assert.deepEqual(
            requests.filter((r) => /^GET \/v1\/(document\/status\/|messages\/sessions\/.*\/status$)/.test(r)),
            [],
            'no status route is polled',
          );

          // Namespaces and keys: mint a read key for the default namespace; the key works.
          await openView(page, 'Namespaces and keys');
          await page
            .getByRole('row', { name: /default/ })
            .getByRole('button', { name: 'Keys' })
            .click();
          await page.getByLabel('Key name').fill('console-made');
          await page.getByRole('button', { name: 'Create key' }).click();
          const minted = await page.locator('code.secret').textContent({ timeout: 10_000 });
          const me = await fetch(`${server.url}/me`, { headers: { 'X-API-Key': minted! } });
          assert.equal(me.status, 200, 'the key minted in the console is accepted');
          await page.getByText('console-made').waitFor();
          await shot('6-admin');
          assert.deepEqual(errors, [], 'no error in the page');
        } finally {
          await page.close();
        }
      },
    );
  });
}

/** Follow a nav link by keyboard (focus + Enter), as a keyboard user would. */
async function openView(page: Page, label: string) {
  const link = page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: label });
  await link.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((l) => document.querySelector('[aria-current=page]')?.textContent === l, label);
}

/** Until the memory's processing (graph included) has completed. */
async function waitForMemory(url: string, key: string, id: string) {
  await waitFor(
    async () => {
      const res = await fetch(`${url}/v1/memory/status/${id}`, { headers: { 'X-API-Key': key } });
      const body = await res.json();
      if (body.processing_status === 'failed') throw new Error(`memory failed: ${JSON.stringify(body)}`);
      return body.processing_status === 'completed';
    },
    { timeoutMs: 30_000, intervalMs: 200, what: 'the memory processed' },
  );
}
