import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { MALLOC_ENV, NODE_FLAGS } from '../scripts/launch.mjs';
import { freePort, runMain, startServer } from './process.ts';
import { MODELS_CACHE, scratchDatabase } from './harness.ts';
import { waitFor } from './wait.ts';
import { openPglite } from '../src/platform/db/pglite.ts';

const tmpDirs: string[] = [];
function tmpDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-start-'));
  tmpDirs.push(d);
  return d;
}
after(() => tmpDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Until /ready is 200: the store is open and the first organization exists. */
const storeReady = (url: string) =>
  waitFor(async () => (await fetch(`${url}/ready`)).status === 200, { timeoutMs: 30_000, what: '/ready 200' });

describe('start-up on the embedded store', () => {
  it('first start creates the organization and a key, written once with mode 0600 and stored only hashed', async () => {
    const dir = tmpDir();
    const s = await startServer({ DATA_DIR: dir });
    try {
      await storeReady(s.url); // /health answers before the store is open and the first organization made
      const file = path.join(dir, 'bootstrap-api-key');
      const key = fs.readFileSync(file, 'utf8').trim();
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.ok(s.output().includes(key), 'the generated key is printed once to the log');
      const me = await fetch(`${s.url}/me`, { headers: { 'X-API-Key': key } });
      assert.equal(me.status, 200);
      // A second process on the same data directory is refused with a clear message.
      const second = runMain({ DATA_DIR: dir });
      assert.notEqual(await second.exited, 0);
      assert.match(second.output(), /in use by another Engram process \(pid \d+\)/);
    } finally {
      assert.equal(await s.stop(), 0);
    }
    // Keys are stored only as hashes.
    const db = await openPglite(dir);
    try {
      const rows = await db.query<{ key_hash: string; key_prefix: string }>(
        'SELECT key_hash, key_prefix FROM api_keys',
      );
      const key = fs.readFileSync(path.join(dir, 'bootstrap-api-key'), 'utf8').trim();
      assert.equal(rows.length, 1);
      assert.notEqual(rows[0].key_hash, key);
      assert.match(rows[0].key_hash, /^[0-9a-f]{64}$/);
      assert.ok(!JSON.stringify(await db.query('SELECT * FROM api_keys')).includes(key));
    } finally {
      await db.close();
    }
  });

  it('a restart keeps data and does not print a new key; a lock left by kill -9 is taken over', async () => {
    const dir = tmpDir();
    const key = `ek_org_${randomBytes(20).toString('hex')}`;
    const a = await startServer({ DATA_DIR: dir, BOOTSTRAP_API_KEY: key });
    assert.ok(!fs.existsSync(path.join(dir, 'bootstrap-api-key')), 'a supplied key is not written to disk');
    a.proc.kill('SIGKILL');
    await a.stop();
    const b = await startServer({ DATA_DIR: dir, BOOTSTRAP_API_KEY: key });
    try {
      assert.doesNotMatch(b.output(), /Created the first organization/);
      const me = await fetch(`${b.url}/me`, { headers: { 'X-API-Key': key } });
      assert.equal(me.status, 200);
    } finally {
      await b.stop();
    }
  });

  it('/health waits for neither store nor models; /ready: 200 once the store is, then search.ready', async () => {
    // startServer returns at the first 200 of /health: that requires neither the store nor the models.
    const s = await startServer({ DATA_DIR: tmpDir(), MODELS_CACHE_DIR: MODELS_CACHE });
    try {
      const statuses: number[] = [];
      const warm = await waitFor(
        async () => {
          const res = await fetch(`${s.url}/ready`);
          const body = await res.json();
          statuses.push(res.status);
          assert.ok(body.search, 'the search field is there from the start');
          if (res.status !== 200) return assert.equal(body.status, 'unavailable'); // the store is still opening
          assert.equal(body.status, 'ready');
          assert.equal(body.store.ok, true);
          assert.equal(body.search.error, undefined);
          return body.search.ready === true && body.search;
        },
        { timeoutMs: 60_000, intervalMs: 20, what: '/ready with search.ready' },
      );
      // Probes do not flap: once the store answered, /ready stayed 200 while the models loaded.
      const since = statuses.slice(statuses.indexOf(200));
      assert.ok(
        since.every((code) => code === 200),
        `/ready answered ${statuses.join(', ')}`,
      );
      assert.deepEqual(
        warm.embedders.map((e: { role: string }) => e.role),
        ['primary', 'secondary'],
      );
      assert.equal(warm.embedders[0].id, 'use-lite-512');
      assert.ok(warm.warmup_ms >= 0);
      assert.match(s.output(), /Search ready/);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  it('a bad configuration is refused with every problem named', async () => {
    const r = runMain({ DATA_DIR: tmpDir(), PORT: 'abc', RATE_LIMIT_MAX: '-5', DATABASE_URL: 'mysql://x' });
    assert.equal(await r.exited, 78);
    const out = r.output();
    assert.match(out, /Invalid configuration/);
    assert.match(out, /PORT/);
    assert.match(out, /RATE_LIMIT_MAX/);
    assert.match(out, /DATABASE_URL/);
  });
});

describe('npm start on Linux: the server in a child with the malloc setting (scripts/launch.mjs)', () => {
  it('runs the server with GLIBC_TUNABLES, and a SIGTERM to the launcher stops both cleanly', async (t) => {
    if (process.platform !== 'linux') return t.skip('glibc only');
    const port = await freePort();
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: tmpDir(), PORT: String(port) };
    delete env.GLIBC_TUNABLES;
    env.HOST = '127.0.0.1';
    env.LOG_LEVEL = 'warn';
    const launcher = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => launcher.on('exit', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${port}`;
      const answers = () =>
        fetch(`${url}/ready`).then(
          (r) => r.status === 200,
          () => false,
        );
      await waitFor(answers, { timeoutMs: 60_000, what: 'the server behind the launcher, /ready 200' });
      const children = fs.readFileSync(`/proc/${launcher.pid}/task/${launcher.pid}/children`, 'utf8').trim();
      assert.match(children, /^\d+$/, 'one child: the server');
      const server = Number(children);
      const serverEnv = fs.readFileSync(`/proc/${server}/environ`, 'utf8').split('\0');
      assert.ok(serverEnv.includes(`GLIBC_TUNABLES=${MALLOC_ENV.GLIBC_TUNABLES}`));
      const serverArgs = fs.readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0');
      for (const flag of NODE_FLAGS) assert.ok(serverArgs.includes(flag), `the server runs with ${flag}`);
      launcher.kill('SIGTERM');
      assert.equal(await exited, 0, 'the launcher exits as the server does: cleanly');
      assert.equal(fs.existsSync(`/proc/${server}`), false, 'the server has stopped');
    } finally {
      launcher.kill('SIGKILL');
    }
  });
});

describe('start-up on PostgreSQL', () => {
  it('DATABASE_URL runs the same service on PostgreSQL', async () => {
    const scratch = await scratchDatabase();
    const url = scratch.url;
    const key = `ek_org_${randomBytes(20).toString('hex')}`;
    try {
      const s = await startServer({ DATA_DIR: tmpDir(), DATABASE_URL: url, BOOTSTRAP_API_KEY: key });
      try {
        const ready = await (await fetch(`${s.url}/ready`)).json();
        assert.equal(ready.store.kind, 'postgres');
        assert.equal((await fetch(`${s.url}/me`, { headers: { 'X-API-Key': key } })).status, 200);
        // Two processes may share one PostgreSQL: no data-dir lock there.
        const s2 = await startServer({ DATA_DIR: tmpDir(), DATABASE_URL: url, BOOTSTRAP_API_KEY: key });
        assert.equal((await fetch(`${s2.url}/me`, { headers: { 'X-API-Key': key } })).status, 200);
        await s2.stop();
      } finally {
        await s.stop();
      }
    } finally {
      await scratch.drop();
    }
  });
});
