/**
 * The `engram` CLI as a process against a real listening server on each store: the memory
 * commands, --json shapes, exit codes, and imports of each format.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildWorker } from '../app.ts';
import type { Worker } from '../platform/jobs/index.ts';
import { createLogger } from '../platform/log.ts';
import { startApp, testConfig, testStores, type TestApp } from '../../test/harness.ts';
import { freePort } from '../../test/process.ts';
import { ROOT, runCli } from '../../test/cli-run.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-cli-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Listed {
  id: string;
  content: string;
  external_user_id: string | null;
  metadata: Record<string, unknown>;
}

for (const store of testStores) {
  describe(`engram CLI (${store.name})`, () => {
    let t: TestApp;
    let env: Record<string, string>;
    let worker: Worker | undefined;
    const adminKey = 'admin-key-for-the-cli-test-0123456789';
    const appEnv = { WORKER_POLL_MS: '50', OCR: 'off', ADMIN_API_KEY: adminKey };
    /** Every memory of an external user, through the listing. */
    const memoriesOf = async (user: string): Promise<Listed[]> => {
      const res = await fetch(`${env.ENGRAM_URL}/v1/memory?external_user_id=${user}&limit=200`, {
        headers: { 'x-api-key': t.key },
      });
      return ((await res.json()) as { data: { memories: Listed[] } }).data.memories;
    };

    before(async () => {
      t = await startApp(store, { env: appEnv });
      env = { ENGRAM_URL: await t.app.listen({ port: 0, host: '127.0.0.1' }), ENGRAM_API_KEY: t.key };
    });
    after(async () => {
      await worker?.stop();
      await t.close();
    });

    it('add, get, search and delete one memory; --json prints documents', async () => {
      const add = await runCli(
        ['--json', 'add', 'Dana keeps bees on her roof', '--user', 'dana', '--metadata', '{"topic":"hobby"}'],
        env,
      );
      assert.equal(add.code, 0, add.stderr);
      const { id } = JSON.parse(add.stdout) as { id: string };
      assert.match(id, /\S{8,}/);

      const get = await runCli(['--json', 'get', id], env);
      assert.equal(get.code, 0, get.stderr);
      const m = JSON.parse(get.stdout) as Listed;
      assert.equal(m.content, 'Dana keeps bees on her roof');
      assert.equal(m.external_user_id, 'dana');
      assert.equal(m.metadata.topic, 'hobby');

      const human = await runCli(['get', id], env);
      assert.match(human.stdout, /Dana keeps bees/);
      assert.match(human.stdout, /user: dana/);

      const search = await runCli(['--json', 'search', 'who keeps bees', '--user', 'dana', '--max', '5'], env);
      assert.equal(search.code, 0, search.stderr);
      const found = JSON.parse(search.stdout) as { memories: Listed[] };
      assert.ok(
        found.memories.some((x) => x.id === id),
        search.stdout,
      );

      const del = await runCli(['--json', 'delete', id], env);
      assert.deepEqual(JSON.parse(del.stdout), { id, deleted: true });
      const gone = await runCli(['get', id], env);
      assert.equal(gone.code, 1);
      assert.match(gone.stderr, /404/);
    });

    it('exit codes: 1 for a refused key, 2 for bad usage, 3 when the server cannot be reached', async () => {
      const bad = await runCli(['--api-key', 'ek_wrong_key_0000000000', 'search', 'anything'], env);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /401/);
      const usage = await runCli(['add'], env);
      assert.equal(usage.code, 2);
      const closed = `http://127.0.0.1:${await freePort()}`;
      const down = await runCli(['--url', closed, 'status'], env);
      assert.equal(down.code, 3);
      assert.match(down.stderr, /cannot reach the server \(ECONNREFUSED\)/);
      const status = await runCli(['--json', 'status'], env);
      assert.equal(status.code, 0, status.stderr);
      const s = JSON.parse(status.stdout) as { health: { status: string }; ready: { store: { kind: string } } };
      assert.equal(s.health.status, 'ok');
      assert.equal(s.ready.store.kind, store.name);
    });

    it('namespaces, keys and org: create, list, revoke', async () => {
      const name = `cli-${store.name}`;
      const ns = await runCli(['--json', 'namespaces', 'create', name], env);
      assert.equal(ns.code, 0, ns.stderr);
      const nsId = String((JSON.parse(ns.stdout) as { objectId: string }).objectId);
      const list = await runCli(['--json', 'namespaces', 'list'], env);
      assert.ok((JSON.parse(list.stdout) as { name: string }[]).some((n) => n.name === name));

      const key = await runCli(['--json', 'keys', 'create', nsId, '--name', 'ci', '--permissions', 'read'], env);
      assert.equal(key.code, 0, key.stderr);
      const k = JSON.parse(key.stdout) as { objectId: string; key: string; permissions: string[] };
      assert.deepEqual(k.permissions, ['read']);
      // The new key works as the CLI's credential, then stops working once revoked.
      const asKey = { ...env, ENGRAM_API_KEY: k.key };
      assert.equal((await runCli(['search', 'anything'], asKey)).code, 0);
      const revoke = await runCli(['keys', 'revoke', nsId, k.objectId], env);
      assert.equal(revoke.code, 0, revoke.stderr);
      assert.equal((await runCli(['search', 'anything'], asKey)).code, 1);
      const keys = JSON.parse((await runCli(['--json', 'keys', 'list', nsId], env)).stdout) as { is_active: boolean }[];
      assert.deepEqual(
        keys.map((x) => x.is_active),
        [false],
      );

      const noAdmin = await runCli(['org', 'list'], env);
      assert.equal(noAdmin.code, 1);
      assert.match(noAdmin.stderr, /--admin-key or ENGRAM_ADMIN_KEY/);
      const orgs = await runCli(['--json', 'org', 'list'], { ...env, ENGRAM_ADMIN_KEY: adminKey });
      assert.equal(orgs.code, 0, orgs.stderr);
      assert.ok((JSON.parse(orgs.stdout) as { organization_id: string }[]).some((o) => o.organization_id === t.orgId));
      const admin = { ...env, ENGRAM_ADMIN_KEY: adminKey };
      const set = await runCli(['--json', 'org', 'set', t.orgId, '--dedupe', 'exact'], admin);
      assert.equal(set.code, 0, set.stderr);
      assert.deepEqual(
        (({ dedupe, supersede }) => ({ dedupe, supersede }))(JSON.parse(set.stdout) as Record<string, string>),
        { dedupe: 'exact', supersede: 'default' },
      );
      assert.equal((await runCli(['org', 'set', t.orgId, '--dedupe', 'default'], admin)).code, 0);
      assert.equal((await runCli(['org', 'set', t.orgId], admin)).code, 1, 'nothing to set');
    });

    it('imports JSONL, and exits 4 when an item is refused', async () => {
      const file = path.join(tmp, `${store.name}-a.jsonl`);
      const lines = [
        { content: 'Erin runs marathons', metadata: { sport: 'running' } },
        { content: 'Erin lives in Lisbon' },
        { content: 'Erin speaks Portuguese and Dutch', external_user_id: 'erin' },
      ];
      fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      const r = await runCli(['--json', 'import', file, '--user', 'erin'], env);
      assert.equal(r.code, 0, r.stderr);
      const summary = JSON.parse(r.stdout) as { format: string; imported: number; refused: number; total: number };
      assert.deepEqual([summary.format, summary.total, summary.imported, summary.refused], ['jsonl', 3, 3, 0]);
      const stored = await memoriesOf('erin');
      assert.equal(stored.length, 3);
      const marathon = stored.find((m) => m.content === 'Erin runs marathons')!;
      assert.equal(marathon.metadata.sport, 'running');
      assert.match(String(marathon.metadata.import_key), /^[0-9a-f]{16}:0$/);

      // Run again: the checkpoint says everything is done, nothing is sent twice.
      const again = await runCli(['--json', 'import', file, '--user', 'erin'], env);
      assert.equal(again.code, 0, again.stderr);
      assert.equal((await memoriesOf('erin')).length, 3);

      const partial = path.join(tmp, `${store.name}-partial.jsonl`);
      fs.writeFileSync(
        partial,
        [{ content: 'fine' }, { content: 'x'.repeat(20_001) }].map((l) => JSON.stringify(l)).join('\n'),
      );
      const p = await runCli(['--json', 'import', partial, '--user', 'frank'], env);
      assert.equal(p.code, 4, p.stderr);
      const ps = JSON.parse(p.stdout) as { imported: number; refused: number; errors: { index: number }[] };
      assert.deepEqual([ps.imported, ps.refused, ps.errors[0].index], [1, 1, 1]);
    });

    it('imports CSV: the content column, the other columns as metadata', async () => {
      const file = path.join(tmp, `${store.name}-notes.csv`);
      fs.writeFileSync(
        file,
        'content,source,rating\n"Gil likes jazz, mostly bebop",survey,5\nGil plays the trumpet,chat,\n',
      );
      const r = await runCli(['--json', 'import', file, '--user', 'gil'], env);
      assert.equal(r.code, 0, r.stderr);
      const stored = await memoriesOf('gil');
      assert.deepEqual(stored.map((m) => m.content).sort(), ['Gil likes jazz, mostly bebop', 'Gil plays the trumpet']);
      const jazz = stored.find((m) => m.content.includes('jazz'))!;
      assert.equal(jazz.metadata.source, 'survey');
      assert.equal(jazz.metadata.rating, '5');
    });

    it('imports a Markdown folder, one memory per file or per heading section', async () => {
      const dir = path.join(tmp, `${store.name}-notes`);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'a.md'), '# Garden\nHana grows tomatoes.\n\n# Kitchen\nHana bakes sourdough.\n');
      fs.writeFileSync(path.join(dir, 'b.md'), 'Hana has a cat called Miso.\n');
      const r = await runCli(['--json', 'import', dir, '--user', 'hana'], env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await memoriesOf('hana')).length, 2);
      const sections = await runCli(
        [
          '--json',
          'import',
          dir,
          '--user',
          'hana2',
          '--by-heading',
          '--checkpoint',
          path.join(tmp, `${store.name}-h.json`),
        ],
        env,
      );
      assert.equal(sections.code, 0, sections.stderr);
      const stored = await memoriesOf('hana2');
      assert.equal(stored.length, 3);
      const kitchen = stored.find((m) => m.content.includes('sourdough'))!;
      assert.equal(kitchen.metadata.heading, 'Kitchen');
      assert.equal(kitchen.metadata.source_file, 'a.md');
    });

    it('imports a mem0 export (examples/mem0-migration), each memory to its user', async () => {
      const src = path.join(ROOT, 'examples/mem0-migration/mem0-export.json');
      const file = path.join(tmp, `${store.name}-mem0.json`);
      fs.copyFileSync(src, file);
      const r = await runCli(['--json', 'import', file], env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((JSON.parse(r.stdout) as { format: string }).format, 'mem0');
      const alex = await memoriesOf('alex');
      assert.equal(alex.length, 2);
      const seat = alex.find((m) => m.content.includes('window seats'))!;
      assert.equal(seat.metadata.mem0_id, '6f1c2b0e-8d3a-4b8e-9a51-0c7e2f1d9a01');
      assert.equal(seat.metadata.source, 'travel-assistant');
      assert.equal((await memoriesOf('sam')).length, 1);

      const exported = await runCli(['export', '--user', 'alex'], env);
      assert.equal(exported.code, 0, exported.stderr);
      const lines = exported.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Listed);
      assert.deepEqual(lines.map((l) => l.id).sort(), alex.map((m) => m.id).sort());

      // The OMO round trip: exported objects imported again are recognised by id and skipped.
      const omoFile = path.join(tmp, `${store.name}-alex.omo.jsonl`);
      const omo = await runCli(['export', '--user', 'alex', '--omo', '-o', omoFile], env);
      assert.equal(omo.code, 0, omo.stderr);
      assert.equal(fs.readFileSync(omoFile, 'utf8').trim().split('\n').length, 2);
      const back = await runCli(['--json', 'import', omoFile, '--format', 'omo'], env);
      assert.equal(back.code, 0, back.stderr);
      const b = JSON.parse(back.stdout) as { imported: number; skipped: number };
      assert.deepEqual([b.imported, b.skipped], [0, 2]);
      assert.equal((await memoriesOf('alex')).length, 2);
    });

    it('documents upload --wait: the file is processed into memories', async () => {
      const file = path.join(tmp, `${store.name}-doc.md`);
      // Documents are processed by the worker role's jobs.
      worker = buildWorker({ config: testConfig(appEnv), db: t.db, log: createLogger('silent') });
      await worker.start();
      fs.writeFileSync(file, '# Ivo\n\nIvo restores old sailing boats in Porto.\n');
      const r = await runCli(
        ['--json', 'documents', 'upload', file, '--user', 'ivo', '--wait', '--timeout', '120'],
        env,
      );
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { documents: { upload_id: string; status: string }[] };
      assert.equal(out.documents[0].status, 'completed');
      const st = await runCli(['--json', 'status', '--document', out.documents[0].upload_id], env);
      assert.equal((JSON.parse(st.stdout) as { status: string }).status, 'completed');
      assert.ok((await memoriesOf('ivo')).some((m) => m.content.includes('sailing boats')));
    });
  });
}
