import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildWorker } from '../../app.ts';
import { createLogger } from '../../platform/log.ts';
import type { Worker } from '../../platform/jobs/index.ts';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { waitFor } from '../../../test/wait.ts';

/** The worker's jobs load models on first use: slow on a busy machine. */
const processed = { timeoutMs: 60_000 };

for (const store of testStores) {
  describe(`OMO export and import [${store.name}]`, () => {
    let t: TestApp;
    let worker: Worker;
    let other: { key: string; organizationId: string };
    before(async () => {
      t = await startApp(store);
      worker = buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log: createLogger('silent') });
      await worker.start();
      other = await makeOrg(t.db);
    });
    after(async () => {
      await worker.stop();
      await t.close();
    });
    const call = (method: string, url: string, payload?: unknown, key: string | Record<string, string> = t.key) =>
      t.app.inject({
        method: method as any,
        url,
        headers: typeof key === 'string' ? { 'x-api-key': key } : key,
        payload: payload as any,
      });
    const add = async (body: Record<string, unknown>, key = t.key) => {
      const res = await call('POST', '/v1/memory', body, key);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data[0].memoryId as string;
    };
    const completed = (ids: string[]) =>
      waitFor(async () => {
        const rows = await t.db.query<{ status: string }>('SELECT status FROM memories WHERE id = ANY($1)', [ids]);
        return rows.length === ids.length && rows.every((r) => r.status === 'completed');
      }, processed);
    const exportOf = async (ids: string[], key: string | Record<string, string> = t.key) => {
      const res = await call('POST', '/v1/omo/export', { memory_ids: ids }, key);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const imported = async (body: Record<string, unknown>, key: string | Record<string, string> = t.key) => {
      const res = await call('POST', '/v1/omo/import', body, key);
      assert.ok([200, 207].includes(res.statusCode), res.body);
      return res.json();
    };

    let ns: string;
    let carol: string;
    let ids: { ana: string; ben: string };
    before(async () => {
      ns = await makeNamespace(t.db, t.orgId);
      carol = (await makeSession(t.db, t.orgId, 'carol')).userId;
      ids = {
        ana: await add({
          content: 'Ana Silva works at Acme Corp on the Apollo launch.',
          external_user_id: 'ana',
          namespace_id: ns,
          context: [{ role: 'user', content: 'Where does Ana work?' }],
          metadata: {
            category: 'fact',
            topics: ['work', 'apollo'],
            sourceUrl: 'https://example.com/notes/1',
            customMetadata: { team: 'blue', priority: 2 },
          },
          policy: {
            consent: 'explicit',
            risk: 'sensitive',
            acl: {
              read: ['external_user:bob', `organization:${t.orgId}`, `user:${carol}`, `namespace:${ns}`, 'role:admin'],
              write: ['external_user:bob'],
            },
          },
          memory_policy: {
            mode: 'manual',
            nodes: [
              { id: 'ana', type: 'Person', properties: { name: 'Ana Silva', role: 'engineer' } },
              { id: 'acme', type: 'Company', properties: { name: 'Acme Corp' } },
            ],
            relationships: [
              { source: 'ana', target: 'acme', type: 'WORKS_AT' },
              { source: '$this', target: 'ana', type: 'MENTIONS' },
            ],
          },
        }),
        ben: await add({ content: 'Ben drinks green tea every morning.', external_user_id: 'ben' }),
      };
      await completed(Object.values(ids));
    });

    it('exports OMO v1 objects: the standard fields, and everything else under engram:* extensions', async () => {
      const body = await exportOf([ids.ana, 'no-such-memory', ids.ben, ids.ana]);
      assert.equal(body.code, 200);
      assert.equal(body.count, 2);
      assert.deepEqual(body.not_found, ['no-such-memory']);
      const [a, b] = body.memories;
      assert.equal(a.id, ids.ana);
      assert.equal(b.id, ids.ben);
      assert.equal(a.type, 'text');
      assert.equal(a.content, 'Ana Silva works at Acme Corp on the Apollo launch.');
      assert.equal(a.consent, 'explicit');
      assert.equal(a.risk, 'sensitive');
      assert.deepEqual(a.topics, ['work', 'apollo']);
      assert.equal(a.sourceUrl, 'https://example.com/notes/1');
      assert.ok(!Number.isNaN(Date.parse(a.createdAt)));
      assert.ok(a.acl.read.includes('external_user:bob') && a.acl.read.includes('external_user:ana'));
      assert.equal(a.ext['engram:namespace_id'], ns);
      assert.equal(a.ext['engram:external_user_id'], 'ana');
      assert.equal(a.ext['engram:organization_id'], t.orgId);
      assert.equal(a.ext['engram:type'], 'text');
      assert.deepEqual(a.ext['engram:metadata'].customMetadata, { team: 'blue', priority: 2 });
      assert.deepEqual(a.ext['engram:context'], [{ role: 'user', content: 'Where does Ana work?' }]);
      assert.ok(!Number.isNaN(Date.parse(a.ext['engram:updatedAt'])));
      const graph = a.ext['engram:graph'];
      assert.deepEqual(graph.nodes.map((n: any) => `${n.type}:${n.name}`).sort(), [
        'Company:Acme Corp',
        'Person:Ana Silva',
      ]);
      const person = graph.nodes.find((n: any) => n.type === 'Person');
      assert.equal(person.properties.role, 'engineer');
      const rels = graph.relationships.map((r: any) => {
        const name = (id: string) => graph.nodes.find((n: any) => n.id === id)?.name ?? id;
        return `${name(r.source)}-${r.type}->${name(r.target)}`;
      });
      assert.deepEqual(rels.sort(), ['$this-MENTIONS->Ana Silva', 'Ana Silva-WORKS_AT->Acme Corp']);
    });

    it('export.json: the same export as a JSON attachment; empty or oversized id lists are 422', async () => {
      const res = await call('GET', `/v1/omo/export.json?memory_ids=${ids.ben},%20${ids.ana},,`);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /application\/json/);
      assert.match(String(res.headers['content-disposition']), /attachment; filename=".+\.omo\.json"/);
      assert.deepEqual(
        res.json().memories.map((m: { id: string }) => m.id),
        [ids.ben, ids.ana],
      );
      assertEnvelope(await call('GET', '/v1/omo/export.json?memory_ids=,,'), 422);
      assertEnvelope(await call('GET', '/v1/omo/export.json?memory_ids='), 422);
      assertEnvelope(await call('GET', '/v1/omo/export.json'), 422);
      const many = Array.from({ length: 1001 }, (_, i) => `m${i}`).join(',');
      assertEnvelope(await call('GET', `/v1/omo/export.json?memory_ids=${many}`), 422);
      assertEnvelope(await call('POST', '/v1/omo/export', { memory_ids: [] }), 422);
      assertEnvelope(await call('POST', '/v1/omo/export', { memory_ids: 'x' }), 422);
      assertEnvelope(await call('POST', '/v1/omo/export', {}), 422);
    });

    it("another tenant's, another namespace's, an end user's unshared ids: not found, like unknown ones", async () => {
      const theirs = await exportOf([ids.ana, ids.ben], other.key);
      assert.equal(theirs.count, 0);
      assert.deepEqual(theirs.not_found, [ids.ana, ids.ben]);
      const { key: nsKey } = await makeKey(t.db, t.orgId, { namespaceId: ns });
      assert.deepEqual((await exportOf([ids.ana, ids.ben], nsKey)).not_found, [ids.ben]);
      const bob = await makeSession(t.db, t.orgId, 'bob');
      const asBob = await exportOf([ids.ana, ids.ben], { 'x-session-token': bob.token });
      assert.deepEqual(asBob.not_found, [ids.ben], 'bob reads what is shared with him, not Ben’s memory');
    });

    it('export → import into another organization: memories, ACL mapped, graph rebuilt; search finds', async () => {
      const exported = await exportOf([ids.ana, ids.ben]);
      const res = await imported({ memories: exported.memories }, other.key);
      assert.equal(res.code, 200);
      assert.equal(res.status, 'success');
      assert.equal(res.imported, 2);
      assert.equal(res.skipped, 0);
      assert.deepEqual(res.errors, []);
      assert.equal(res.memory_ids.length, 2);
      const [newAna, newBen] = res.memory_ids;
      assert.ok(!Object.values(ids).includes(newAna), 'new ids in the new organization');
      const rows = await t.db.query<any>('SELECT * FROM memories WHERE id = ANY($1) ORDER BY content', [
        res.memory_ids,
      ]);
      const a = rows.find((r: any) => r.id === newAna);
      assert.equal(a.organization_id, other.organizationId);
      assert.equal(a.external_user_id, 'ana');
      assert.equal(a.namespace_id, null, 'the exporting namespace does not exist here');
      assert.equal(a.content, 'Ana Silva works at Acme Corp on the Apollo launch.');
      assert.equal(a.consent, 'explicit');
      assert.equal(a.risk, 'sensitive');
      assert.equal(a.metadata.category, 'fact');
      assert.deepEqual(a.metadata.customMetadata, { team: 'blue', priority: 2 });
      assert.deepEqual(a.metadata.topics, ['work', 'apollo']);
      assert.equal(a.metadata.omo_id, ids.ana);
      assert.deepEqual(a.context, [{ role: 'user', content: 'Where does Ana work?' }]);
      // The exporting organization becomes this one; its users and namespaces mean nothing here.
      const owner = (
        await t.db.query<{ id: string }>('SELECT id FROM users WHERE organization_id = $1 AND external_id = $2', [
          other.organizationId,
          'ana',
        ])
      )[0].id;
      assert.deepEqual(
        [...a.acl_read].sort(),
        [
          'external_user:ana',
          'external_user:bob',
          `organization:${other.organizationId}`,
          'role:admin',
          `user:${owner}`,
        ].sort(),
      );
      assert.deepEqual([...a.acl_write].sort(), ['external_user:ana', 'external_user:bob', `user:${owner}`].sort());
      await completed(res.memory_ids);
      const again = (await exportOf([newAna], other.key)).memories[0].ext['engram:graph'];
      assert.deepEqual(again.nodes.map((n: any) => `${n.type}:${n.name}`).sort(), [
        'Company:Acme Corp',
        'Person:Ana Silva',
      ]);
      assert.equal(again.nodes.find((n: any) => n.type === 'Person').properties.role, 'engineer');
      assert.equal(again.relationships.length, 2);
      const search = await call(
        'POST',
        '/v1/memory/search',
        { query: 'Where does Ana work?', external_user_id: 'ana' },
        other.key,
      );
      assert.equal(search.statusCode, 200, search.body);
      assert.equal(search.json().data.memories[0]?.id, newAna);
      const tea = await call('POST', '/v1/memory/search', { query: 'green tea', external_user_id: 'ben' }, other.key);
      assert.equal(tea.json().data.memories[0]?.id, newBen);
      // Nothing of it reached the exporting organization.
      const [{ n }] = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM memories WHERE organization_id = $1',
        [t.orgId],
      );
      assert.equal(n, 2);
    });

    it('skip_duplicates: an imported id, its origin, same content of one user, repeats in a request', async () => {
      const exported = await exportOf([ids.ana, ids.ben]);
      const first = await imported({ memories: exported.memories, namespace_id: undefined }, other.key);
      // Imported once already (previous test): both are duplicates now.
      assert.equal(first.imported, 0);
      assert.equal(first.skipped, 2);
      assert.ok(first.results.every((r: any) => r.status === 'skipped' && typeof r.memory_id === 'string'));
      // Back into the exporting organization: the origin ids are memories there.
      const back = await exportOf(
        first.results.map((r: any) => r.memory_id),
        other.key,
      );
      const home = await imported({ memories: back.memories });
      assert.deepEqual([home.imported, home.skipped], [0, 2]);
      // Another platform's object with the same content for the same user is a duplicate too.
      const foreign = {
        id: 'urn:other-platform:42',
        createdAt: '2024-05-01T10:00:00Z',
        type: 'text',
        content: 'Ben drinks green tea every morning.',
        consent: 'implicit',
      };
      const same = await imported({ memories: [foreign], external_user_id: 'ben' });
      assert.deepEqual([same.imported, same.skipped, same.results[0].memory_id], [0, 1, ids.ben]);
      // Twice in one request: the first is imported, the second points at it.
      const twice = await imported({
        memories: [
          { ...foreign, content: 'Ben also likes oolong.' },
          { ...foreign, content: 'Ben also likes oolong.' },
        ],
        external_user_id: 'ben',
      });
      assert.deepEqual(
        twice.results.map((r: any) => r.status),
        ['imported', 'skipped'],
      );
      assert.equal(twice.results[1].memory_id, twice.results[0].memory_id);
      // Without skip_duplicates every object is stored again.
      const forced = await imported({ memories: exported.memories, skip_duplicates: false }, other.key);
      assert.deepEqual([forced.imported, forced.skipped], [2, 0]);
    });

    it('per-object errors: bad objects are reported by index, the others imported (207); all bad is 422', async () => {
      const good = {
        id: 'ok-1',
        createdAt: '2024-01-01T00:00:00Z',
        type: 'code',
        content: 'const x = 1;',
        consent: 'terms',
      };
      const res = await call('POST', '/v1/omo/import', {
        external_user_id: 'dana',
        memories: [
          good,
          { ...good, id: 'bad-empty', content: '' },
          { ...good, id: 'bad-date', createdAt: 'yesterday' },
          'not an object',
          { ...good, id: 'bad-type', type: 'hologram' },
          { ...good, id: 'bad-consent', consent: 'maybe' },
          { ...good, id: 'bad-meta', ext: { 'engram:metadata': { customMetadata: { nested: { no: 1 } } } } },
          { ...good, id: 'too-big', content: 'x'.repeat(20_000) },
        ],
      });
      assert.equal(res.statusCode, 207, res.body);
      const body = res.json();
      assert.equal(body.status, 'partial');
      assert.equal(body.imported, 1);
      assert.deepEqual(
        body.errors.map((e: any) => [e.index, e.code]),
        [
          [1, 422],
          [2, 422],
          [3, 422],
          [4, 422],
          [5, 422],
          [6, 422],
          [7, 422],
        ],
      );
      assert.equal(body.errors[0].omo_id, 'bad-empty');
      const [row] = await t.db.query<any>('SELECT type, consent FROM memories WHERE id = $1', [body.memory_ids[0]]);
      assert.deepEqual([row.type, row.consent], ['code_snippet', 'terms']);
      const [{ n }] = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM memories
         WHERE metadata->>'omo_id' LIKE 'bad-%' OR metadata->>'omo_id' = 'too-big'`,
      );
      assert.equal(n, 0, 'nothing of a refused object is stored');
      const none = await call('POST', '/v1/omo/import', { memories: [{ id: 'x' }, 42] });
      assert.equal(none.statusCode, 422, none.body);
      assert.deepEqual([none.json().status, none.json().imported, none.json().errors.length], ['error', 0, 2]);
      for (const bad of [
        {},
        { memories: [] },
        { memories: 'x' },
        { memories: Array(1001).fill(good) },
        { memories: [good], skip_duplicates: 'yes' },
        { memories: [good], organization_id: other.organizationId },
      ])
        assertEnvelope(await call('POST', '/v1/omo/import', bad), 422);
      assertEnvelope(await call('POST', '/v1/omo/import', { memories: [good], user_id: 'no-such-user' }), 404);
    });

    it('where imports land: a namespace named, a namespace key’s, an end user as themselves', async () => {
      const obj = (id: string, content: string) => ({
        id,
        createdAt: '2024-02-02T00:00:00Z',
        content,
        consent: 'implicit',
      });
      const target = await makeNamespace(t.db, t.orgId);
      const inNs = await imported({
        memories: [obj('n-1', 'Filed into a namespace.')],
        namespace_id: target,
        external_user_id: 'erin',
      });
      const [row] = await t.db.query<any>('SELECT namespace_id, external_user_id FROM memories WHERE id = $1', [
        inNs.memory_ids[0],
      ]);
      assert.deepEqual([row.namespace_id, row.external_user_id], [target, 'erin']);
      assertEnvelope(await call('POST', '/v1/omo/import', { memories: [obj('n-2', 'x')], namespace_id: 'nope' }), 404);
      const { key: nsKey } = await makeKey(t.db, t.orgId, { namespaceId: ns });
      const viaKey = await imported(
        { memories: [obj('n-3', 'Through a namespace key.')], external_user_id: 'erin' },
        nsKey,
      );
      assert.equal(
        (await t.db.query<any>('SELECT namespace_id FROM memories WHERE id = $1', [viaKey.memory_ids[0]]))[0]
          .namespace_id,
        ns,
      );
      assertEnvelope(
        await call('POST', '/v1/omo/import', { memories: [obj('n-4', 'x')], namespace_id: target }, nsKey),
        403,
      );
      const erin = await makeSession(t.db, t.orgId, 'erin');
      const asErin = { 'x-session-token': erin.token };
      // An end user's import is theirs, whatever owner the objects name.
      const mine = await imported(
        { memories: [{ ...obj('n-5', 'Mine, whoever exported it.'), ext: { 'engram:external_user_id': 'frank' } }] },
        asErin,
      );
      assert.equal(
        (await t.db.query<any>('SELECT user_id FROM memories WHERE id = $1', [mine.memory_ids[0]]))[0].user_id,
        erin.userId,
      );
      assertEnvelope(
        await call('POST', '/v1/omo/import', { memories: [obj('n-6', 'x')], external_user_id: 'frank' }, asErin),
        403,
      );
    });

    it('POST /v1/memory?format=omo stores one OMO object as an import would; a bad one is 422', async () => {
      const omo = {
        id: 'urn:elsewhere:7',
        createdAt: '2024-04-04T12:00:00Z',
        type: 'code',
        content: 'SELECT 1;',
        consent: 'explicit',
        risk: 'sensitive',
        topics: ['sql'],
        acl: { read: ['external_user:hana'] },
        external_user_id: 'gail',
      };
      const res = await call('POST', '/v1/memory?format=omo&skip_background_processing=true', omo);
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().data[0].memoryId;
      const [row] = await t.db.query<any>('SELECT * FROM memories WHERE id = $1', [id]);
      assert.deepEqual(
        [row.type, row.consent, row.risk, row.external_user_id, row.metadata.omo_id, row.metadata.topics],
        ['code_snippet', 'explicit', 'sensitive', 'gail', 'urn:elsewhere:7', ['sql']],
      );
      assert.ok(row.acl_read.includes('external_user:hana'));
      assertEnvelope(await call('POST', '/v1/memory?format=omo', { ...omo, createdAt: undefined }), 422);
      assertEnvelope(await call('POST', '/v1/memory?format=omo', { ...omo, type: 'hologram' }), 422);
      assertEnvelope(await call('POST', '/v1/memory?format=xml', omo), 422);
      assertEnvelope(await call('POST', '/v1/memory/batch?format=omo', { memories: [omo] }), 422);
      // Without format the body is a memory item as ever (the OMO-only fields are not read).
      assert.equal((await call('POST', '/v1/memory', { content: 'plain' })).statusCode, 200);
      // The client calls format a response format: a plain memory item with format=omo is stored as one.
      const plain = await call('POST', '/v1/memory?format=omo&skip_background_processing=true', {
        content: 'A plain item sent with format=omo.',
        external_user_id: 'gail',
        metadata: { category: 'fact' },
      });
      assert.equal(plain.statusCode, 200, plain.body);
      const [stored] = await t.db.query<any>('SELECT content, metadata FROM memories WHERE id = $1', [
        plain.json().data[0].memoryId,
      ]);
      assert.equal(stored.content, 'A plain item sent with format=omo.');
      assert.equal(stored.metadata.omo_id, undefined);
    });

    const kit = authKitFor(() => t);
    const sample = () => ({
      memories: [
        { id: 'kit-1', createdAt: '2024-03-03T00:00:00Z', content: 'Imported by the kit.', consent: 'implicit' },
      ],
      external_user_id: 'kit',
    });
    kit(
      'export',
      'POST',
      () => '/v1/omo/export',
      'read',
      () => ({ memory_ids: [ids.ana] }),
      (res) => {
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual([res.json().count, res.json().not_found], [0, [ids.ana]]);
      },
    );
    kit(
      'export.json',
      'GET',
      () => `/v1/omo/export.json?memory_ids=${ids.ana}`,
      'read',
      undefined,
      (res) => {
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json().not_found, [ids.ana]);
      },
    );
    // Another organization's key imports into its own organization, never ours.
    kit(
      'import',
      'POST',
      () => '/v1/omo/import',
      'write',
      sample,
      async (res, app) => {
        assert.equal(res.statusCode, 200, res.body);
        const [{ org }] = await app.db.query<{ org: string }>(
          'SELECT organization_id AS org FROM memories WHERE id = $1',
          [res.json().memory_ids[0]],
        );
        assert.notEqual(org, app.orgId);
      },
    );
  });
}
