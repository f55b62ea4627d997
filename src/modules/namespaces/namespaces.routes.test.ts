import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg } from '../../../test/factories.ts';
import { addMemory, searchContents } from '../../../test/memory-helpers.ts';
import { racingApp, turns } from '../../../test/interleave.ts';

for (const store of testStores) {
  describe(`namespaces [${store.name}]`, () => {
    let t: TestApp;
    let known: string;
    before(async () => {
      t = await startApp(store);
      known = await makeNamespace(t.db, t.orgId, 'kit-namespace');
    });
    after(() => t.close());
    const call = (method: any, url: string, payload?: unknown, key = t.key) =>
      t.app.inject({ method, url, headers: { 'x-api-key': key }, payload: payload as any });
    const memRow = async (id: string) =>
      (
        await t.db.query<{ namespace_id: string | null; acl_read: string[]; acl_write: string[] }>(
          'SELECT namespace_id, acl_read, acl_write FROM memories WHERE id = $1',
          [id],
        )
      )[0];
    const chunkNs = async (id: string) =>
      (
        await t.db.query<{ namespace_id: string | null }>(
          'SELECT namespace_id FROM memory_chunks WHERE memory_id = $1',
          [id],
        )
      ).map((r) => r.namespace_id);

    it('creates, gets, lists (paged) and updates namespaces with the NamespaceItem fields', async () => {
      const res = await call('POST', '/v1/namespace', {
        name: 'acme-prod',
        environment_type: 'staging',
        rate_limits: { requests_per_minute: 100 },
        default_policy: { consent: 'explicit' },
      });
      assert.equal(res.statusCode, 200, res.body);
      const ns = res.json().data;
      assert.equal(ns.name, 'acme-prod');
      assert.equal(ns.organization_id, t.orgId);
      assert.equal(ns.environment_type, 'staging');
      assert.equal(ns.is_active, true);
      // null values are stripped at the edge (null = absent)
      assert.deepEqual(ns.rate_limits, { requests_per_minute: 100 });
      assert.deepEqual(ns.default_policy, { consent: 'explicit' });
      assert.equal(ns.memoriesCount, 0);
      assert.equal(ns.storageCount, 0);
      assert.ok(!Number.isNaN(Date.parse(ns.createdAt)) && !Number.isNaN(Date.parse(ns.updatedAt)));

      await addMemory(t, { content: 'Twelve bytes', external_user_id: 'u1', namespace_id: ns.objectId });
      await addMemory(t, { content: 'Four', external_user_id: 'u1', namespace_id: ns.objectId });
      const got = (await call('GET', `/v1/namespace/${ns.objectId}`)).json().data;
      assert.equal(got.memoriesCount, 2);
      assert.equal(got.storageCount, 16);

      const upd = await call('PUT', `/v1/namespace/${ns.objectId}`, {
        is_active: false,
        rate_limits: { requests_per_minute: 5 },
      });
      assert.equal(upd.statusCode, 200, upd.body);
      assert.equal(upd.json().data.is_active, false);
      assert.equal(upd.json().data.name, 'acme-prod');
      assert.deepEqual(upd.json().data.rate_limits, { requests_per_minute: 5 });
      assert.equal(upd.json().data.environment_type, 'staging');

      const page1 = (await call('GET', '/v1/namespace?limit=2&skip=0')).json();
      const page2 = (await call('GET', '/v1/namespace?limit=2&skip=2')).json();
      assert.equal(page1.total, page2.total);
      assert.ok(page1.total >= 3); // default + kit + acme-prod
      assert.equal(page1.page, 0);
      assert.equal(page2.page, 2);
      assert.equal(page1.page_size, 2);
      assert.equal(page1.data.length, 2);
      const names = [...page1.data, ...page2.data].map((n: any) => n.name);
      assert.ok(names.includes('default') && names.includes('acme-prod'));
      assert.equal(new Set(names).size, names.length);
    });

    it('rejects duplicate names (400) and bad input (422); unknown ids are 404', async () => {
      await makeNamespace(t.db, t.orgId, 'dup');
      assertEnvelope(await call('POST', '/v1/namespace', { name: 'dup' }), 400);
      const other = (await call('POST', '/v1/namespace', { name: 'dup-2' })).json().data;
      assertEnvelope(await call('PUT', `/v1/namespace/${other.objectId}`, { name: 'dup' }), 400);
      assertEnvelope(await call('POST', '/v1/namespace', { name: '' }), 422);
      assertEnvelope(await call('POST', '/v1/namespace', { name: 'x', environment_type: 'moon' }), 422);
      assertEnvelope(await call('GET', '/v1/namespace/nope'), 404);
      assertEnvelope(await call('PUT', '/v1/namespace/nope', { is_active: true }), 404);
      assertEnvelope(await call('DELETE', '/v1/namespace/nope'), 404);
    });

    it('namespace keys see only their own namespace and cannot administer namespaces (403)', async () => {
      const mine = await makeNamespace(t.db, t.orgId);
      const { key } = await makeKey(t.db, t.orgId, { namespaceId: mine });
      const list = (await call('GET', '/v1/namespace', undefined, key)).json();
      assert.equal(list.total, 1);
      assert.deepEqual(
        list.data.map((n: any) => n.objectId),
        [mine],
      );
      assert.equal((await call('GET', `/v1/namespace/${mine}`, undefined, key)).statusCode, 200);
      assertEnvelope(await call('GET', `/v1/namespace/${known}`, undefined, key), 404);
      assertEnvelope(await call('POST', '/v1/namespace', { name: 'sneaky' }, key), 403);
      assertEnvelope(
        await call('PUT', `/v1/namespace/${mine}`, { rate_limits: { requests_per_minute: 1e6 } }, key),
        403,
      );
      assertEnvelope(await call('DELETE', `/v1/namespace/${mine}`, undefined, key), 403);
      assert.equal((await call('GET', `/v1/namespace/${mine}`)).statusCode, 200);
    });

    it(
      'a deactivated namespace refuses its keys (403) ' + 'and new memories, keeps old ones readable, and comes back',
      async () => {
        const ns = await makeNamespace(t.db, t.orgId, 'sleepy');
        const nsKey = (await makeKey(t.db, t.orgId, { namespaceId: ns })).key;
        const id = await addMemory(t, { content: 'Written while awake', external_user_id: 'u9', namespace_id: ns });
        assert.equal((await call('PUT', `/v1/namespace/${ns}`, { is_active: false })).statusCode, 200);
        assertEnvelope(await call('GET', '/me', undefined, nsKey), 403);
        assertEnvelope(
          await call('POST', '/v1/memory', { content: 'Written while asleep', external_user_id: 'u9' }, nsKey),
          403,
        );
        assertEnvelope(
          await call('POST', '/v1/memory', {
            content: 'Written while asleep',
            external_user_id: 'u9',
            namespace_id: ns,
          }),
          403,
        );
        assert.equal((await call('GET', `/v1/memory/${id}`)).statusCode, 200, 'the organization key still reads it');
        assert.equal(
          (await t.db.query('SELECT count(*)::int AS n FROM memories WHERE namespace_id = $1', [ns]))[0].n,
          1,
        );
        assert.equal((await call('PUT', `/v1/namespace/${ns}`, { is_active: true })).statusCode, 200);
        assert.equal(
          (await call('POST', '/v1/memory', { content: 'Awake again', external_user_id: 'u9' }, nsKey)).statusCode,
          200,
        );
      },
    );

    it(
      'delete (defaults): memories and chunks gone, ' +
        'ACL references cleaned elsewhere, keys dead, other tenant untouched',
      async () => {
        const doomed = await makeNamespace(t.db, t.orgId);
        const keep = await makeNamespace(t.db, t.orgId);
        const other = await makeOrg(t.db);
        const otherNs = await makeNamespace(t.db, other.organizationId);
        const { key: nsKey } = await makeKey(t.db, t.orgId, { namespaceId: doomed });
        const m1 = await addMemory(t, {
          content: 'Doomed memory one about kayaks.',
          external_user_id: 'del-u',
          namespace_id: doomed,
        });
        const m2 = await addMemory(t, {
          content: 'Doomed memory two about kayaks.',
          external_user_id: 'del-u',
          namespace_id: doomed,
        });
        const acl = { read: [`namespace:${doomed}`, 'external_user:friend'], write: [`namespace:${doomed}`] };
        const sharedR = await addMemory(t, {
          content: 'Shared with the doomed namespace.',
          external_user_id: 'del-u',
          namespace_id: keep,
          policy: { acl },
        });
        const sharedW = await addMemory(t, {
          content: 'Only readable by it.',
          external_user_id: 'del-u',
          policy: { acl: { read: [`namespace:${doomed}`] } },
        });
        const untouched = await addMemory(
          t,
          {
            content: 'Another tenant note, same ACL text.',
            external_user_id: 'del-u',
            namespace_id: otherNs,
            policy: { acl },
          },
          other.key,
        );

        const res = await call('DELETE', `/v1/namespace/${doomed}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.equal(body.status, 'success');
        assert.equal(body.namespace_id, doomed);
        assert.deepEqual(body.cascade, {
          memories_deleted: 2,
          memories_failed: 0,
          memories_detached: 0,
          graph_nodes_deleted: 0,
          neo4j_nodes_deleted: 0,
          acl_read_cleaned: 2,
          acl_write_cleaned: 1,
          api_keys_deleted: 1,
          sessions_deleted: 0,
          messages_deleted: 0,
        });
        assert.equal(await memRow(m1), undefined);
        assert.equal(await memRow(m2), undefined);
        assert.deepEqual(await chunkNs(m1), []);
        assert.deepEqual(
          (await memRow(sharedR)).acl_read.filter((e) => e.startsWith('namespace:')),
          [],
        );
        assert.ok((await memRow(sharedR)).acl_read.includes('external_user:friend'));
        assert.deepEqual(
          (await memRow(sharedR)).acl_write.filter((e) => e.startsWith('namespace:')),
          [],
        );
        assert.deepEqual(
          (await memRow(sharedW)).acl_read.filter((e) => e.startsWith('namespace:')),
          [],
        );
        assert.ok((await memRow(untouched)).acl_read.includes(`namespace:${doomed}`));
        assertEnvelope(await call('GET', `/v1/namespace/${doomed}`), 404);
        assertEnvelope(await call('GET', '/v1/namespace', undefined, nsKey), 401);
        assert.equal(
          (await call('GET', `/v1/namespace/${otherNs}`, undefined, other.key)).json().data.memoriesCount,
          1,
        );
        assertEnvelope(await call('DELETE', `/v1/namespace/${doomed}`), 404);
      },
    );

    it(
      'delete_memories=false keeps the memories (detached, ' +
        'still searchable); flags off leave ACLs; aliases accepted',
      async () => {
        const ns = await makeNamespace(t.db, t.orgId);
        const m = await addMemory(t, {
          content: 'Survivor memory about lighthouses.',
          external_user_id: 'keeper',
          namespace_id: ns,
        });
        const ref = await addMemory(t, {
          content: 'Refers to it.',
          external_user_id: 'keeper',
          policy: { acl: { read: [`namespace:${ns}`] } },
        });
        const res = await call(
          'DELETE',
          `/v1/namespace/${ns}?delete_memories=false&delete_neo4j_nodes=false&remove_acl_references=false`,
        );
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json().cascade, {
          memories_deleted: 0,
          memories_failed: 0,
          memories_detached: 1,
          graph_nodes_deleted: 0,
          neo4j_nodes_deleted: 0,
          acl_read_cleaned: 0,
          acl_write_cleaned: 0,
          api_keys_deleted: 0,
          sessions_deleted: 0,
          messages_deleted: 0,
        });
        assert.equal((await memRow(m)).namespace_id, null);
        assert.deepEqual(await chunkNs(m), [null]);
        assert.ok((await memRow(ref)).acl_read.includes(`namespace:${ns}`));
        assert.equal(
          (await searchContents(t, { query: 'survivor lighthouses', external_user_id: 'keeper' }))[0],
          'Survivor memory about lighthouses.',
        );
        const ns2 = await makeNamespace(t.db, t.orgId);
        assertEnvelope(
          await call('DELETE', `/v1/namespace/${ns2}?delete_graph_nodes=true&delete_neo4j_nodes=false`),
          422,
        );
        assert.equal((await call('GET', `/v1/namespace/${ns2}`)).statusCode, 200);
      },
    );

    describe('auth kit', () => {
      const kit = authKitFor(() => t);
      kit(
        'POST /v1/namespace',
        'POST',
        () => '/v1/namespace',
        'write',
        () => ({ name: `kit-${Math.random()}` }),
        async (res: any) => {
          assert.equal(res.statusCode, 200, res.body);
          const created = res.json().data;
          assert.notEqual(created.organization_id, t.orgId);
          assertEnvelope(await call('GET', `/v1/namespace/${created.objectId}`), 404);
        },
      );
      kit(
        'GET /v1/namespace',
        'GET',
        () => '/v1/namespace',
        'read',
        undefined,
        (res: any) => {
          assert.equal(res.statusCode, 200);
          assert.ok(res.json().data.every((n: any) => n.organization_id !== t.orgId));
        },
      );
      kit('GET /v1/namespace/:id', 'GET', () => `/v1/namespace/${known}`, 'read');
      kit(
        'PUT /v1/namespace/:id',
        'PUT',
        () => `/v1/namespace/${known}`,
        'write',
        () => ({ is_active: true }),
      );
      kit('DELETE /v1/namespace/:id', 'DELETE', () => `/v1/namespace/${known}`, 'delete');
    });
  });

  // Issue #17 finding 5: answers to requests racing on one namespace. Every answer is a
  // success or a 404 in the error envelope, never a 5xx.
  describe(`namespace races [${store.name}]`, () => {
    const { t, interleave, call } = racingApp(store);
    const settled = (res: { statusCode: number; body: string }, what: string) => {
      assert.ok([200, 204, 404].includes(res.statusCode), `${what}: ${res.statusCode} ${res.body}`);
      if (res.statusCode === 404) assertEnvelope(res as any, 404);
    };

    it('PUT racing DELETE of the same namespace answers 200 or 404, never 5xx (100 rounds)', async (ctx) => {
      const outcomes: Record<string, number> = {};
      for (let round = 0; round < 100; round++) {
        const ns = await makeNamespace(t.db, t.orgId, `race-${round}`);
        const put = () => call('PUT', `/v1/namespace/${ns}`, { is_active: round % 4 < 2, environment_type: 'staging' });
        const del = () => call('DELETE', `/v1/namespace/${ns}`);
        let u, d;
        if (round % 2 === 0) {
          // The window of the finding: the DELETE runs to its end right after the update's statement.
          const deleted = interleave.after((sql) => /UPDATE namespaces/.test(sql), del);
          u = await put();
          interleave.flush();
          d = await deleted;
          settled(u, `round ${round} PUT`);
          assert.equal(u.statusCode, 200, 'the update came first: its answer is the row it wrote');
          assert.equal(u.json().data.objectId, ns);
          assert.equal(u.json().data.environment_type, 'staging');
        } else {
          // Free-running: the DELETE starts 0 to 6 event-loop turns after the PUT.
          [u, d] = await Promise.all([put(), turns((round >> 1) % 7).then(del)]);
          settled(u, `round ${round} PUT`);
        }
        settled(d, `round ${round} DELETE`);
        assert.equal(d.statusCode, 200, `round ${round}: the delete itself succeeds`);
        assertEnvelope(await call('GET', `/v1/namespace/${ns}`), 404);
        const k = `${round % 2 ? 'free' : 'between'} PUT ${u.statusCode}`;
        outcomes[k] = (outcomes[k] ?? 0) + 1;
      }
      ctx.diagnostic(JSON.stringify(outcomes));
    });

    it('concurrent renames to one free name: one wins (200), the others are 400, never 5xx', async () => {
      for (let round = 0; round < 20; round++) {
        const ids = await Promise.all([0, 1, 2].map((i) => makeNamespace(t.db, t.orgId, `rename-${round}-${i}`)));
        const answers = await Promise.all(
          ids.map((id) => call('PUT', `/v1/namespace/${id}`, { name: `taken-${round}` })),
        );
        const codes = answers.map((a) => a.statusCode).sort();
        assert.deepEqual(codes, [200, 400, 400], `round ${round}: ${answers.map((a) => a.body).join(' | ')}`);
        for (const a of answers.filter((x) => x.statusCode === 400)) assertEnvelope(a, 400);
      }
    });

    it('minting a key while the namespace is deleted: 200 (key deleted with it) or 404, never 5xx', async () => {
      for (let round = 0; round < 40; round++) {
        const ns = await makeNamespace(t.db, t.orgId);
        const mint = () => call('POST', `/v1/namespace/${ns}/api-keys`, { name: `k${round}` });
        const del = () => call('DELETE', `/v1/namespace/${ns}`);
        let k, d;
        if (round % 2 === 0) {
          // The DELETE runs right after the minting request checked that the namespace exists.
          const deleted = interleave.after((sql) => /FROM namespaces WHERE organization_id/.test(sql), del);
          k = await mint();
          interleave.flush();
          d = await deleted;
          assertEnvelope(k, 404);
        } else {
          [k, d] = await Promise.all([mint(), turns((round >> 1) % 5).then(del)]);
          settled(k, `round ${round} mint`);
        }
        assert.equal(d.statusCode, 200, d.body);
        const left = await t.db.query('SELECT 1 FROM api_keys WHERE namespace_id = $1', [ns]);
        assert.equal(left.length, 0, 'no key outlives its namespace');
      }
    });

    it('a memory written into a namespace while it is deleted: 200 or 404, never 5xx', async () => {
      for (let round = 0; round < 40; round++) {
        const ns = await makeNamespace(t.db, t.orgId);
        const target = await makeNamespace(t.db, t.orgId);
        const memory = await addMemory(t, { content: `Movable note ${round}.`, external_user_id: 'mover' });
        const del = () => call('DELETE', `/v1/namespace/${ns}`);
        const move = () => call('PUT', `/v1/memory/${memory}`, { namespace_id: ns });
        const add = () =>
          call('POST', '/v1/memory', { content: `New note ${round}.`, external_user_id: 'mover', namespace_id: ns });
        let w, d;
        if (round % 2 === 0) {
          // The DELETE runs right after the write looked the namespace up, if it did so outside
          // its transaction (as updates did before issue #17); else right after the write.
          const deleted = interleave.after((sql) => /FROM namespaces WHERE organization_id/.test(sql), del);
          w = await (round % 4 === 0 ? move() : add());
          interleave.flush();
          d = await deleted;
        } else {
          [w, d] = await Promise.all([round % 4 === 1 ? move() : add(), turns((round >> 1) % 5).then(del)]);
        }
        settled(w, `round ${round} write`);
        assert.equal(d.statusCode, 200, d.body);
        const inside = await t.db.query('SELECT 1 FROM memories WHERE namespace_id = $1', [ns]);
        assert.equal(inside.length, 0, 'nothing is left in the deleted namespace');
        assert.equal((await call('GET', `/v1/namespace/${target}`)).statusCode, 200);
      }
    });
  });
}
