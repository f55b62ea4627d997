/**
 * The console's OAuth sign-in in a real browser (Debian's chromium through playwright-core)
 * against a real server process configured with the loopback OpenID provider the OAuth tests
 * use, on both stores: the identity-provider button → the provider's login form → back in the
 * console with an access token (the query taken off the address) → a memory added through the
 * UI is listed and belongs to the OAuth user → a batch is followed over the WebSocket with the
 * token → sign out revokes the token. A forged state is
 * refused. Screenshots go to SHOTS like console.browser.test.ts's.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { MODELS_CACHE, scenarioStore } from '../../../test/harness.ts';
import { startTestProvider, type TestProvider } from '../../../test/oidc-provider.ts';
import { freePort, startServer, type Server } from '../../../test/process.ts';

const SHOTS = process.env.CONSOLE_SHOTS_DIR ?? path.join(os.tmpdir(), 'engram-console-shots');
const CHROMIUM = '/usr/bin/chromium';

function pgliteStore() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-console-oauth-'));
  const key = `ek_org_${randomBytes(20).toString('hex')}`;
  const env = { DATA_DIR: dir, BOOTSTRAP_API_KEY: key, MODELS_CACHE_DIR: MODELS_CACHE, RATE_LIMIT_MAX: '0' };
  return { key, env, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const stores = {
  pglite: async () => pgliteStore(),
  postgres: () => scenarioStore('engram-console-oauth-pg-'),
};

for (const [name, open] of Object.entries(stores)) {
  describe(`web console: sign in with the identity provider (${name})`, () => {
    let store: Awaited<ReturnType<typeof open>>;
    let idp: TestProvider;
    let server: Server;
    let browser: Browser;

    before(async () => {
      store = await open();
      // The server's callback is registered at the provider first, so its port is fixed now.
      const port = await freePort();
      const callbackUrl = `http://127.0.0.1:${port}/callback`;
      idp = await startTestProvider({
        callbackUrl,
        postLogoutRedirectUris: [],
        clients: [{ client_id: 'engram', client_secret: 'engram-secret' }],
      });
      idp.accounts.set('alice', { sub: 'alice', email: 'alice@example.com', name: 'Alice Liddell' });
      server = await startServer({
        ...store.env,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        OAUTH_ISSUER: idp.issuer,
        OAUTH_ALLOW_INSECURE_ISSUER: 'true',
        OAUTH_CALLBACK_URL: callbackUrl,
        OAUTH_CLIENT_ID: 'engram',
        OAUTH_CLIENT_SECRET: 'engram-secret',
        // The console's own address (loopback: any port matches).
        OAUTH_REDIRECT_URIS: 'http://127.0.0.1/console/',
      });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      fs.mkdirSync(SHOTS, { recursive: true });
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
      await idp?.close();
      await store?.cleanup();
    });

    it(
      'provider login → signed in with a Bearer token → a memory of the OAuth user → sign out',
      { timeout: 120_000 },
      async (t) => {
        const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        const shot = async (what: string) => {
          const file = path.join(SHOTS, `${name}-oauth-${what}.png`);
          await page.screenshot({ path: file, fullPage: true });
          t.diagnostic(`screenshot: ${file}`);
        };
        try {
          await page.goto(`${server.url}/console`);
          await page.getByRole('button', { name: 'Sign in with the identity provider' }).click();

          // At the provider: its own login form.
          await page
            .waitForURL((u) => u.origin === idp.issuer, { timeout: 15_000 })
            .catch(async (err) => {
              throw new Error(`not at the provider: ${page.url()}\n${await page.textContent('body')}`, { cause: err });
            });
          await page.getByLabel('Username').fill('alice');
          await shot('1-provider');
          await page.getByRole('button', { name: 'Log in' }).click();

          // Back in the console, signed in; the code and state are gone from the address.
          await page.getByRole('navigation', { name: 'Views' }).waitFor({ timeout: 20_000 });
          assert.equal(page.url(), `${server.url}/console/`);
          const stored = await page.evaluate(() => ({
            token: sessionStorage.getItem('engram.accessToken'),
            key: sessionStorage.getItem('engram.apiKey'),
            state: sessionStorage.getItem('engram.oauthState'),
          }));
          assert.ok(stored.token, 'the access token is kept in sessionStorage');
          assert.equal(stored.key, null);
          assert.equal(stored.state, null, 'the state is used once');
          const who = page.locator('.who[data-signed-in="oauth"]');
          assert.match((await who.textContent())!, /Signed in as Alice Liddell \(identity provider\)/);
          const bearer = { authorization: `Bearer ${stored.token}` };
          const me = await (await fetch(`${server.url}/me`, { headers: bearer })).json();
          assert.equal(me.displayName, 'Alice Liddell');

          // Every call the console makes carries the Bearer token, never an API key.
          const sent: Record<string, string>[] = [];
          page.on('request', (r) => {
            if (new URL(r.url()).pathname.startsWith('/v1/')) sent.push(r.headers());
          });
          const content = 'Alice signed in through the identity provider and keeps her notes in Engram.';
          await page.getByLabel('Content').fill(content);
          await page.getByRole('button', { name: 'Add memory' }).click();
          const id = await page.locator('[role=status] code').textContent({ timeout: 15_000 });
          await page.locator(`tr[data-memory-id="${id}"]`).waitFor();
          assert.match((await page.locator(`tr[data-memory-id="${id}"]`).textContent())!, /identity provider/);
          await shot('2-memories');
          assert.ok(sent.length >= 2, 'the add and the list went to the API');
          for (const h of sent) {
            assert.equal(h.authorization, `Bearer ${stored.token}`);
            assert.equal(h['x-api-key'], undefined);
          }
          const mem = await fetch(`${server.url}/v1/memory/${id}`, { headers: bearer });
          assert.equal(mem.status, 200);
          const memory = (await mem.json()).data.memories[0];
          assert.equal(memory.user_id, me.user_id, 'the memory belongs to the OAuth user');

          // A batch followed over the status WebSocket, authenticated with the access token.
          const frames: string[] = [];
          page.on('websocket', (ws) => ws.on('framesent', (f) => frames.push(String(f.payload))));
          await openBatches(page);
          await page.getByLabel('Memories, one per line').fill('Alice reads in Oxford.\nAlice rows on the Isis.');
          await page.getByRole('button', { name: 'Submit batch' }).click();
          await page.locator('[data-status="completed"]').waitFor({ timeout: 45_000 });
          assert.match((await page.locator('.status').first().textContent())!, /2 of 2 done/);
          assert.deepEqual(
            frames.map((f) => JSON.parse(f)),
            [{ type: 'auth', access_token: stored.token }],
          );

          // Sign out: the token is dropped and revoked at the server.
          await page.getByRole('button', { name: 'Sign out' }).click();
          await page.getByRole('button', { name: 'Sign in with the identity provider' }).waitFor();
          assert.equal(await page.evaluate(() => sessionStorage.getItem('engram.accessToken')), null);
          assert.equal((await fetch(`${server.url}/me`, { headers: bearer })).status, 401);

          // An answer this tab did not ask for (forged state) is refused and taken off the address.
          await page.goto(`${server.url}/console/?code=stolen&state=forged`);
          await page.getByRole('alert').waitFor();
          assert.match((await page.getByRole('alert').textContent())!, /does not match a login started in this tab/);
          assert.equal(page.url(), `${server.url}/console/`);
          await shot('3-forged');
          assert.deepEqual(errors, [], 'no error in the page');
        } finally {
          await page.close();
        }
      },
    );
  });
}

async function openBatches(page: Page) {
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: 'Batches, documents, sessions' })
    .click();
  await page.getByLabel('Memories, one per line').waitFor();
}
