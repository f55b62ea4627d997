import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeNamespace, makeOrg } from '../../../test/factories.ts';
import { addMemory, post, searchContents } from '../../../test/memory-helpers.ts';
import { racingApp, turns } from '../../../test/interleave.ts';

for (const store of testStores) {
  describe(`memories [${store.name}]`, () => {
    let t: TestApp;
    let known: string;
    before(async () => {
      t = await startApp(store, { env: { MAX_CONTENT_BYTES: '3000' } });
      known = await addMemory(t, { content: 'Kit memory about sailing.', external_user_id: 'kit-user' });
    });
    after(() => t.close());
    const get = (id: string, key = t.key) => t.app.inject({ url: `/v1/memory/${id}`, headers: { 'x-api-key': key } });

    it('adds a memory and returns it in the search envelope with the contract fields', async () => {
      const res = await post(t, '/v1/memory', {
        content: 'Maria prefers window seats on long flights.',
        external_user_id: 'maria',
        metadata: {
          role: 'user',
          category: 'preference',
          createdAt: '2024-05-01T10:00:00Z',
          customMetadata: { trip: 'lisbon' },
        },
        context: [
          { role: 'user', content: 'Book me a flight' },
          { role: 'assistant', content: 'Window or aisle?' },
        ],
      });
      assert.equal(res.statusCode, 200, res.body);
      const item = res.json().data[0];
      assert.equal(item.memoryId, item.objectId);
      assert.equal(item.memoryChunkIds.length, 1);
      assert.ok(!Number.isNaN(Date.parse(item.createdAt)));
      const got = await get(item.memoryId);
      assert.equal(got.statusCode, 200);
      const body = got.json();
      assert.equal(body.status, 'success');
      assert.deepEqual(body.data.nodes, []);
      const m = body.data.memories[0];
      assert.equal(m.id, item.memoryId);
      assert.equal(m.content, 'Maria prefers window seats on long flights.');
      assert.equal(m.type, 'text');
      assert.equal(m.external_user_id, 'maria');
      assert.equal(m.role, 'user');
      assert.equal(m.category, 'preference');
      assert.deepEqual(m.customMetadata, { trip: 'lisbon' });
      assert.equal(m.context.length, 2);
      assert.deepEqual(m.acl.maria, { read: true, write: true });
      assert.equal(typeof m.user_id, 'string');
      assert.equal(m.organization_id, t.orgId);
    });

    it('rejects bad input with 422 naming the problem and stores nothing', async () => {
      const big = assertEnvelope(
        await post(t, '/v1/memory', { content: 'x'.repeat(3001), external_user_id: 'u' }),
        422,
      );
      assert.equal(big.details.limit, 3000);
      assertEnvelope(await post(t, '/v1/memory', { content: 42 }), 422);
      assertEnvelope(await post(t, '/v1/memory', { content: '' }), 422);
      assertEnvelope(await post(t, '/v1/memory', { external_user_id: 'u' }), 422);
      const org = assertEnvelope(
        await post(t, '/v1/memory', { content: 'a', external_user_id: 'u', organization_id: 'someone-else' }),
        422,
      );
      assert.match(org.error, /organization_id/);
      const dep = assertEnvelope(
        await post(t, '/v1/memory?enable_holographic=true', {
          content: 'a',
          external_user_id: 'u',
          policy: { transform_embedding: { mode: 'none' } },
        }),
        422,
      );
      assert.deepEqual(dep.details.fields, ['policy.transform_embedding.mode', 'enable_holographic']);
      assert.deepEqual(await searchContents(t, { query: 'x', external_user_id: 'u' }), []);
    });

    it(
      'deprecated metadata.acl: string entries are read, ' + 'a non-string entry is a 422 naming it (not a 500)',
      async () => {
        // Issue #17 finding 4: {"read": [123]} threw a TypeError in normaliseAclEntry.
        const add = (acl: unknown) =>
          post(t, '/v1/memory', { content: 'Legacy ACL memory.', external_user_id: 'acl-owner', metadata: { acl } });
        const read = assertEnvelope(await add({ read: [123] }), 422);
        assert.deepEqual(read.details, { field: 'metadata.acl.read[0]' });
        assert.match(read.error, /^metadata\.acl\.read\[0\]: .*string/);
        const write = assertEnvelope(await add({ read: ['friend'], write: ['ok', { id: 'x' }] }), 422);
        assert.deepEqual(write.details, { field: 'metadata.acl.write[1]' });
        assertEnvelope(await add({ read: ['x'.repeat(513)] }), 422);
        const batch = await post(t, '/v1/memory/batch', {
          external_user_id: 'acl-owner',
          memories: [{ content: 'Fine.' }, { content: 'Bad ACL.', metadata: { acl: { read: ['fine', 7] } } }],
        });
        assert.equal(batch.statusCode, 207, batch.body);
        assert.deepEqual(
          batch.json().errors.map((e: any) => [e.index, e.code, e.details?.field]),
          [[1, 422, 'metadata.acl.read[1]']],
        );
        // Well-formed legacy lists still work; a list that is not an array is still not read.
        const ok = await add({ read: ['friend'], write: 'not-a-list' });
        assert.equal(ok.statusCode, 200, ok.body);
        const m = (await get(ok.json().data[0].memoryId)).json().data.memories[0];
        assert.deepEqual(m.acl.friend, { read: true, write: false });
        const update = await t.app.inject({
          method: 'PUT',
          url: `/v1/memory/${ok.json().data[0].memoryId}`,
          headers: { 'x-api-key': t.key },
          payload: { metadata: { acl: { read: [true] } } },
        });
        assert.deepEqual(assertEnvelope(update, 422).details, { field: 'metadata.acl.read[0]' });
      },
    );

    it(
      'other deprecated metadata keys: consent and risk take their policy values, ' +
        'a createdAt out of range is not read',
      async () => {
        const add = (metadata: Record<string, unknown>) =>
          post(t, '/v1/memory', { content: 'Legacy metadata memory.', external_user_id: 'legacy-md', metadata });
        // Stored unchecked before, escaping the consent and risk filters.
        for (const field of ['consent', 'risk'])
          assert.deepEqual(assertEnvelope(await add({ [field]: 'bogus' }), 422).details, {
            field: `metadata.${field}`,
          });
        // A year JavaScript parses but the store cannot take: a 500 on PGlite before.
        const ok = await add({ consent: 'explicit', risk: 'sensitive', createdAt: '99999-01-01' });
        assert.equal(ok.statusCode, 200, ok.body);
        const [row] = await t.db.query<{ consent: string; risk: string; occurred_at: Date | null }>(
          'SELECT consent, risk, occurred_at FROM memories WHERE id = $1',
          [ok.json().data[0].memoryId],
        );
        assert.deepEqual(row, { consent: 'explicit', risk: 'sensitive', occurred_at: null });
      },
    );

    it('splits long content into chunks that fit the embedder, all searchable', async () => {
      const sentences = Array.from(
        { length: 40 },
        (_, i) => `Sentence number ${i} talks about topic ${i % 7} in some detail.`,
      );
      sentences[35] = 'The secret ingredient of the stew is smoked paprika.';
      const res = await post(t, '/v1/memory', { content: sentences.join(' '), external_user_id: 'chunky' });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(res.json().data[0].memoryChunkIds.length > 1);
      const found = await searchContents(t, { query: 'smoked paprika stew', external_user_id: 'chunky' });
      assert.equal(found.length, 1);
    });

    it(
      'batch: stores valid items, reports invalid ones by index, ' + 'fills the totals, applies batch-level fields',
      async () => {
        const ns = await makeNamespace(t.db, t.orgId);
        const res = await post(t, '/v1/memory/batch', {
          external_user_id: 'batcher',
          namespace_id: ns,
          batch_size: 2,
          memories: [
            { content: 'First batch memory about apples.' },
            { content: 'x'.repeat(4000) },
            { content: 'Second about pears.', metadata: { category: 'facts' } },
            { nope: true },
            { content: 'Third about plums.', external_user_id: 'other-batcher' },
          ],
        });
        assert.equal(res.statusCode, 207, res.body);
        const b = res.json();
        assert.equal(b.status, 'partial');
        assert.equal(b.code, 207);
        assert.deepEqual(
          b.errors.map((e: any) => e.index),
          [1, 3],
        );
        assert.match(b.errors[0].error, /4000 bytes/);
        assert.equal(b.total_processed, 5);
        assert.equal(b.total_successful, 3);
        assert.equal(b.total_failed, 2);
        assert.equal(
          b.total_content_size,
          Buffer.byteLength('First batch memory about apples.Second about pears.Third about plums.'),
        );
        assert.ok(b.total_storage_size > b.total_content_size);
        assert.equal(typeof b.batch_id, 'string');
        const ids = b.successful.map((s: any) => s.data[0].memoryId);
        const mems = await Promise.all(ids.map(async (id: string) => (await get(id)).json().data.memories[0]));
        assert.deepEqual(
          mems.map((m) => m.external_user_id),
          ['batcher', 'batcher', 'other-batcher'],
        );
        assert.ok(mems.every((m) => m.namespace_id === ns));
        assert.equal(mems[1].category, 'fact');
        const all = await post(t, '/v1/memory/batch', { memories: [{ content: '' }] });
        assert.equal(all.statusCode, 422);
        assert.equal(all.json().status, 'error');
      },
    );

    it('concurrent batches creating the same new users all succeed', async () => {
      const users = ['cc-a', 'cc-b', 'cc-c', 'cc-d'];
      const batches = [0, 1, 2, 3].map((k) => ({
        batch_size: 2,
        memories: users.map((u, i) => ({
          content: `Concurrent note ${k}-${i}`,
          external_user_id: users[(i + k) % users.length],
        })),
      }));
      const results = await Promise.all(batches.map((b) => post(t, '/v1/memory/batch', b)));
      for (const r of results) assert.equal(r.statusCode, 200, r.body);
      const rows = await t.db.query(
        `SELECT count(*)::int AS n FROM users WHERE organization_id = $1 AND external_id LIKE 'cc-%'`,
        [t.orgId],
      );
      assert.equal(rows[0].n, 4);
    });

    it('an update that does not name the type keeps the stored one', async () => {
      const id = await addMemory(t, { content: 'const x = 1;', type: 'code_snippet', external_user_id: 'upd-type' });
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/memory/${id}`,
        headers: { 'x-api-key': t.key },
        payload: { content: 'const x = 2;' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await get(id)).json().data.memories[0].type, 'code_snippet');
    });

    it('updates content (re-embedded and re-indexed), metadata and context', async () => {
      const id = await addMemory(t, { content: 'The meeting is on Monday.', external_user_id: 'upd' });
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/memory/${id}`,
        headers: { 'x-api-key': t.key },
        payload: { content: 'The workshop moved to Thursday.', metadata: { category: 'task' } },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().memory_items[0].memoryId, id);
      assert.deepEqual(await searchContents(t, { query: 'workshop Thursday', external_user_id: 'upd' }), [
        'The workshop moved to Thursday.',
      ]);
      assert.deepEqual(
        await searchContents(t, {
          query: 'meeting Monday',
          external_user_id: 'upd',
          metadata: { category: 'preference' },
        }),
        [],
      );
      const m = (await get(id)).json().data.memories[0];
      assert.equal(m.category, 'task');
      assertEnvelope(
        await t.app.inject({
          method: 'PUT',
          url: '/v1/memory/nope',
          headers: { 'x-api-key': t.key },
          payload: { content: 'x' },
        }),
        404,
      );
      assertEnvelope(
        await t.app.inject({
          method: 'PUT',
          url: `/v1/memory/${id}`,
          headers: { 'x-api-key': t.key },
          payload: { content: 7 },
        }),
        422,
      );
    });

    it('deletes one memory; unknown ids and other tenants’ ids are 404', async () => {
      const id = await addMemory(t, { content: 'Temporary note.', external_user_id: 'del' });
      const other = await makeOrg(t.db);
      assertEnvelope(await get(id, other.key), 404);
      assertEnvelope(
        await t.app.inject({ method: 'DELETE', url: `/v1/memory/${id}`, headers: { 'x-api-key': other.key } }),
        404,
      );
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/memory/${id}`, headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().memoryId, id);
      assertEnvelope(await get(id), 404);
      assertEnvelope(await get('does-not-exist'), 404);
    });

    it('delete-all removes exactly one user’s memories (in one namespace when asked)', async () => {
      const nsA = await makeNamespace(t.db, t.orgId);
      const nsB = await makeNamespace(t.db, t.orgId);
      const other = await makeOrg(t.db);
      // The same words twice in one namespace: the second is stored because dedupe is off for it.
      for (const [user, ns, dedupe] of [
        ['dora', nsA, 'near'],
        ['dora', nsA, 'off'],
        ['dora', nsB, 'near'],
        ['eve', nsA, 'near'],
      ] as const) {
        await addMemory(t, {
          content: `Note of ${user} in namespace`,
          external_user_id: user,
          namespace_id: ns,
          dedupe,
        });
      }
      await addMemory(t, { content: 'Dora in another org', external_user_id: 'dora' }, other.key);
      const del = (q: string) =>
        t.app.inject({ method: 'DELETE', url: `/v1/memory/all?${q}`, headers: { 'x-api-key': t.key } });
      const r1 = await del(`external_user_id=dora&namespace_id=${nsA}`);
      assert.equal(r1.statusCode, 200, r1.body);
      assert.equal(r1.json().total_successful, 2);
      assert.equal(r1.json().successful.length, 2);
      assert.deepEqual(await searchContents(t, { query: 'note namespace', external_user_id: 'dora' }), [
        'Note of dora in namespace',
      ]);
      assert.equal((await searchContents(t, { query: 'note namespace', external_user_id: 'eve' })).length, 1);
      const r2 = await del('external_user_id=dora');
      assert.equal(r2.json().total_successful, 1);
      assert.equal((await searchContents(t, { query: 'note namespace', external_user_id: 'eve' })).length, 1);
      assert.deepEqual(
        await searchContents(t, { query: 'Dora another org', external_user_id: 'dora' }, '', other.key),
        ['Dora in another org'],
      );
      assertEnvelope(await del('external_user_id=never-seen'), 404);
    });

    describe('auth kit', () => {
      const kit = authKitFor(() => t);
      /** Another organization's write lands in that organization: invisible to ours. */
      const writesElsewhere = async (res: any) => {
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        const id = body.data?.[0]?.memoryId ?? body.successful[0].data[0].memoryId;
        assertEnvelope(await get(id), 404);
      };
      kit(
        'POST /v1/memory',
        'POST',
        () => '/v1/memory',
        'write',
        () => ({ content: 'kit', external_user_id: 'kit-user' }),
        writesElsewhere,
      );
      kit(
        'POST /v1/memory/batch',
        'POST',
        () => '/v1/memory/batch',
        'write',
        () => ({ memories: [{ content: 'kit' }], external_user_id: 'kit-user' }),
        writesElsewhere,
      );
      kit('GET /v1/memory/:id', 'GET', () => `/v1/memory/${known}`, 'read');
      kit(
        'PUT /v1/memory/:id',
        'PUT',
        () => `/v1/memory/${known}`,
        'write',
        () => ({ metadata: { category: 'task' } }),
      );
      kit('DELETE /v1/memory/:id', 'DELETE', () => `/v1/memory/${known}`, 'delete');
      kit('DELETE /v1/memory/all', 'DELETE', () => '/v1/memory/all?external_user_id=kit-user', 'delete');
      kit(
        'POST /v1/memory/search',
        'POST',
        () => '/v1/memory/search',
        'read',
        () => ({ query: 'sailing', external_user_id: 'kit-user' }),
        (res: any) => {
          // Same external user id, other organization: a different person, nothing of ours.
          assert.equal(res.statusCode, 200);
          assert.deepEqual(res.json().data.memories, []);
        },
      );
    });
  });

  // Issue #17 finding 5, for memories: PUT and DELETE of one memory racing. Every answer is a
  // success or a 404 in the error envelope, never a 5xx, and a successful update answers with
  // what it wrote even when a delete follows at once.
  describe(`memory races [${store.name}]`, () => {
    const { t, interleave, call } = racingApp(store, { env: { MAX_CONTENT_BYTES: '3000' } });
    const settled = (res: { statusCode: number; body: string }, what: string) => {
      assert.ok([200, 204, 404].includes(res.statusCode), `${what}: ${res.statusCode} ${res.body}`);
      if (res.statusCode === 404) assertEnvelope(res as any, 404);
    };

    it('PUT racing DELETE of the same memory answers 200 or 404, never 5xx (60 rounds)', async (ctx) => {
      const outcomes: Record<string, number> = {};
      for (let round = 0; round < 60; round++) {
        const id = await addMemory(t, { content: `Racing note ${round} about kites.`, external_user_id: 'racer' });
        const chunkIds = (await t.db.query<{ id: string }>('SELECT id FROM memory_chunks WHERE memory_id = $1', [id]))
          .map((r) => r.id)
          .sort();
        const body =
          round % 2 ? { content: `Racing note ${round} about boats.` } : { metadata: { topic: `r${round}` } };
        const put = () => call('PUT', `/v1/memory/${id}`, body);
        const del = () => call('DELETE', `/v1/memory/${id}`);
        const mode = ['after-read', 'after-commit', 'free'][round % 3];
        let u, d;
        if (mode === 'free') {
          [u, d] = await Promise.all([put(), turns(round % 7).then(del)]);
        } else {
          // The DELETE runs to its end right after the PUT read the memory, or right after the
          // PUT's transaction committed.
          const deleted = interleave.after(
            mode === 'after-read' ? (sql) => /FROM memories WHERE id = \$1/.test(sql) : (step) => step === 'COMMIT',
            del,
          );
          u = await put();
          interleave.flush();
          d = await deleted;
          assert.equal(u.statusCode, mode === 'after-read' ? 404 : 200, u.body);
        }
        settled(u, `round ${round} PUT`);
        settled(d, `round ${round} DELETE`);
        assert.equal(d.statusCode, 200, `round ${round}: the delete itself succeeds`);
        if (u.statusCode === 200) {
          const item = u.json().memory_items[0];
          assert.equal(item.memoryId, id);
          if (!body.content) assert.deepEqual([...item.memoryChunkIds].sort(), chunkIds, 'the chunks it has');
          else assert.equal(item.memoryChunkIds.length, 1);
        }
        assertEnvelope(await call('GET', `/v1/memory/${id}`), 404);
        const left = await t.db.query('SELECT 1 FROM memory_chunks WHERE memory_id = $1', [id]);
        assert.equal(left.length, 0, 'no chunk outlives its memory');
        const k = `${mode} PUT ${u.statusCode}`;
        outcomes[k] = (outcomes[k] ?? 0) + 1;
      }
      ctx.diagnostic(JSON.stringify(outcomes));
    });

    // A batch resolves (creates) its users before the per-group transactions; a user deleted in
    // between made that group's items report code 500. Each group resolves its users again, key-
    // share locked, inside its transaction: a user deleted meanwhile is created again on first
    // sight (as a fresh POST /v1/memory would), and a user named by internal user_id that is
    // gone is that item's 404.
    it(
      'a batch whose user is deleted meanwhile: ' + 'stored for a user made anew or the item is 404, never 500',
      async (ctx) => {
        const outcomes: Record<string, number> = {};
        const itemCodes = (res: { json(): any }) => (res.json().errors ?? []).map((e: any) => e.code);
        for (let round = 0; round < 30; round++) {
          const ext = `leaver-${round}`;
          const keeper = await addMemory(t, { content: `Keeper note ${round}.`, external_user_id: `keeper-${round}` });
          const [{ user_id: keeperId }] = await t.db.query<{ user_id: string }>(
            'SELECT user_id FROM memories WHERE id = $1',
            [keeper],
          );
          const memories = [
            { content: `Leaver note ${round} one.`, external_user_id: ext },
            { content: `Leaver note ${round} two.`, external_user_id: ext },
            { content: `Keeper note ${round} by id.`, user_id: keeperId },
          ];
          const batch = () => call('POST', '/v1/memory/batch', { memories });
          const delLeaver = () => call('DELETE', `/v1/user?external_user_id=${ext}`);
          const delKeeper = () => call('DELETE', `/v1/user/${keeperId}`);
          const free = round % 2 === 1;
          let b, d;
          if (!free) {
            // The leaver is deleted right after the batch created and looked up its users, before
            // its group's transaction.
            const deleted = interleave.after((sql) => /external_id = ANY/.test(sql), delLeaver);
            b = await batch();
            interleave.flush();
            d = await deleted;
            assert.equal(d.statusCode, 200, d.body);
            assert.equal(b.statusCode, 200, `round ${round}: ${b.body}`);
            // Stored for the leaver made anew: a live user of that external id owns them.
            const owners = await t.db.query<{ external_id: string }>(
              `SELECT u.external_id FROM memories m JOIN users u ON u.id = m.user_id
             WHERE m.batch_id = $1 AND m.external_user_id = $2`,
              [b.json().batch_id, ext],
            );
            assert.deepEqual(
              owners.map((o) => o.external_id),
              [ext, ext],
            );
          } else {
            // Free-running: both users are deleted 0 to 6 event-loop turns after the batch starts.
            const later = turns((round >> 1) % 7);
            [b, d] = await Promise.all([batch(), later.then(delLeaver), later.then(delKeeper)]);
            assert.ok([200, 404].includes(d.statusCode), d.body);
          }
          assert.ok([200, 207].includes(b.statusCode), `round ${round}: ${b.statusCode} ${b.body}`);
          const codes = itemCodes(b);
          assert.ok(
            codes.every((c: number) => c === 404),
            `round ${round}: items fail only as 404: ${b.body}`,
          );
          for (const e of b.json().errors ?? []) assert.equal(e.index, 2, 'only the item naming the deleted user_id');
          const k = `${free ? 'free' : 'between'} ${b.statusCode}`;
          outcomes[k] = (outcomes[k] ?? 0) + 1;
        }
        ctx.diagnostic(JSON.stringify(outcomes));
      },
    );
  });

  describe(`batch owners [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());

    it(
      'an item naming an unknown internal user_id fails in its own slot (404); ' + 'the rest of its group is stored',
      async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/memory/batch',
          headers: { 'x-api-key': t.key },
          payload: {
            memories: [
              { content: 'Stored for a named external user.', external_user_id: 'named' },
              { content: 'Nobody has this id.', user_id: 'no-such-user' },
              { content: 'Stored too.', external_user_id: 'named' },
            ],
          },
        });
        assert.equal(res.statusCode, 207, res.body);
        const body = res.json();
        assert.deepEqual(
          body.errors.map((e: any) => [e.index, e.code]),
          [[1, 404]],
        );
        assert.match(body.errors[0].error, /User no-such-user not found/);
        assert.equal(body.total_successful, 2);
        const stored = await t.db.query('SELECT 1 FROM memories WHERE batch_id = $1', [body.batch_id]);
        assert.equal(stored.length, 2);
      },
    );
  });
}
