import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { addMemory } from '../../../test/memory-helpers.ts';
import { racingApp, turns } from '../../../test/interleave.ts';

for (const store of testStores) {
  describe(`users [${store.name}]`, () => {
    let t: TestApp;
    let known: string;
    before(async () => {
      t = await startApp(store);
      known = (await call('POST', '/v1/user', { external_id: 'kit-user' })).json().user_id;
    });
    after(() => t.close());
    function call(method: any, url: string, payload?: unknown, key = t.key) {
      return t.app.inject({ method, url, headers: { 'x-api-key': key }, payload: payload as any });
    }
    const count = async (sql: string, params: unknown[]) =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;

    it('creates, gets, updates and lists users (UserResponse shape, filters, pages)', async () => {
      const res = await call('POST', '/v1/user', {
        external_id: 'alice',
        email: 'alice@example.com',
        metadata: { plan: 'pro' },
        type: 'agent',
      });
      assert.equal(res.statusCode, 200, res.body);
      const u = res.json();
      assert.equal(u.code, 200);
      assert.equal(u.status, 'success');
      assert.equal(u.external_id, 'alice');
      assert.equal(u.email, 'alice@example.com');
      assert.deepEqual(u.metadata, { plan: 'pro' });
      assert.equal(u.type, 'agent');
      assert.ok(!Number.isNaN(Date.parse(u.created_at)) && !Number.isNaN(Date.parse(u.updated_at)));
      assert.deepEqual((await call('GET', `/v1/user/${u.user_id}`)).json(), u);

      const upd = (
        await call('PUT', `/v1/user/${u.user_id}`, { email: 'a@new.example', metadata: { plan: 'team' } })
      ).json();
      assert.equal(upd.email, 'a@new.example');
      assert.deepEqual(upd.metadata, { plan: 'team' });
      assert.equal(upd.external_id, 'alice');

      for (const ext of ['bob', 'carol', 'dave'])
        await call('POST', '/v1/user', { external_id: ext, email: `${ext}@example.com` });
      const byExt = (await call('GET', '/v1/user?external_id=carol')).json();
      assert.equal(byExt.total, 1);
      assert.equal(byExt.data[0].email, 'carol@example.com');
      assert.equal((await call('GET', '/v1/user?email=a%40new.example')).json().data[0].user_id, u.user_id);
      const p1 = (await call('GET', '/v1/user?page=1&page_size=2')).json();
      const p2 = (await call('GET', '/v1/user?page=2&page_size=2')).json();
      assert.equal(p1.page, 1);
      assert.equal(p1.page_size, 2);
      assert.equal(p1.data.length, 2);
      assert.equal(p1.total, p2.total);
      assert.ok(p1.total >= 5);
      const ids = [...p1.data, ...p2.data].map((x: any) => x.user_id);
      assert.equal(new Set(ids).size, ids.length);
    });

    it('rejects duplicates (400 naming the existing user), bad input (422) and unknown ids (404)', async () => {
      const first = (await call('POST', '/v1/user', { external_id: 'dupe' })).json();
      const dup = assertEnvelope(await call('POST', '/v1/user', { external_id: 'dupe' }), 400);
      assert.equal(dup.details.user_id, first.user_id);
      assertEnvelope(await call('PUT', `/v1/user/${known}`, { external_id: 'dupe' }), 400);
      assertEnvelope(await call('POST', '/v1/user', { email: 'x@example.com' }), 422);
      assertEnvelope(await call('POST', '/v1/user', { external_id: 'x', type: 'robot' }), 422);
      assertEnvelope(await call('GET', '/v1/user/nope'), 404);
      assertEnvelope(await call('PUT', '/v1/user/nope', { email: 'x' }), 404);
      assertEnvelope(await call('DELETE', '/v1/user/nope'), 404);
      assertEnvelope(await call('DELETE', '/v1/user'), 422);
    });

    it('batch: creates each user, reports duplicates in their slot (207), all failing is 400', async () => {
      const res = await call('POST', '/v1/user/batch', {
        users: [{ external_id: 'b1' }, { external_id: 'b2', email: 'b2@example.com' }, { external_id: 'b1' }],
      });
      assert.equal(res.statusCode, 207, res.body);
      const b = res.json();
      assert.equal(b.status, 'partial');
      assert.equal(b.total, 3);
      assert.deepEqual(
        b.data.map((u: any) => u.status),
        ['success', 'success', 'error'],
      );
      assert.equal(b.data[2].code, 400);
      assert.equal(b.data[2].details.user_id, b.data[0].user_id);
      assert.equal(b.data[1].email, 'b2@example.com');
      const all = await call('POST', '/v1/user/batch', { users: [{ external_id: 'b1' }] });
      assert.equal(all.statusCode, 400);
      assert.equal(all.json().status, 'error');
      assert.equal(all.json().data.length, 1);
      const bad = await t.app.inject({
        method: 'POST',
        url: '/v1/user/batch',
        headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
        payload: '{nope',
      });
      assertEnvelope(bad, 400);
      assertEnvelope(await call('POST', '/v1/user/batch', { users: [] }), 422);
    });

    it('delete (client form, external id): memories, sessions and the user go; others untouched', async () => {
      const other = await makeOrg(t.db);
      const { token, userId } = await makeSession(t.db, t.orgId, 'gone-user');
      const ns = await makeNamespace(t.db, t.orgId);
      await addMemory(t, { content: 'Gone one.', external_user_id: 'gone-user' });
      await addMemory(t, { content: 'Gone two.', external_user_id: 'gone-user', namespace_id: ns });
      const stays = await addMemory(t, { content: 'Stays.', external_user_id: 'stay-user' });
      const elsewhere = await addMemory(
        t,
        { content: 'Same external id, other tenant.', external_user_id: 'gone-user' },
        other.key,
      );
      assert.equal((await t.app.inject({ url: '/me', headers: { 'x-session-token': token } })).statusCode, 200);

      const res = await call('DELETE', '/v1/user/gone-user?is_external=true');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().user_id, userId);
      assert.equal(res.json().memories_deleted, 2);
      assert.equal(res.json().user_deleted, true);
      assert.equal(await count('memories WHERE user_id = $1', [userId]), 0);
      assert.equal(await count('sessions WHERE user_id = $1', [userId]), 0);
      assert.equal(await count('users WHERE id = $1', [userId]), 0);
      assertEnvelope(await t.app.inject({ url: '/me', headers: { 'x-session-token': token } }), 401);
      assert.equal(await count('memories WHERE id = ANY($1::text[])', [[stays, elsewhere]]), 2);
      assertEnvelope(await call('GET', `/v1/user/${userId}`), 404);
    });

    it(
      'delete with namespace_id (spec form) ' +
        'removes only that namespace’s memories and keeps the user; namespace keys are confined',
      async () => {
        const nsA = await makeNamespace(t.db, t.orgId);
        const nsB = await makeNamespace(t.db, t.orgId);
        const { token, userId } = await makeSession(t.db, t.orgId, 'partial-user');
        await addMemory(t, { content: 'In A.', external_user_id: 'partial-user', namespace_id: nsA });
        await addMemory(t, { content: 'In B.', external_user_id: 'partial-user', namespace_id: nsB });
        await addMemory(t, { content: 'In B again.', external_user_id: 'partial-user', namespace_id: nsB });
        await addMemory(t, { content: 'Nowhere.', external_user_id: 'partial-user' });

        const r1 = await call('DELETE', `/v1/user?external_user_id=partial-user&namespace_id=${nsA}`);
        assert.equal(r1.statusCode, 200, r1.body);
        assert.deepEqual([r1.json().memories_deleted, r1.json().user_deleted], [1, false]);
        assert.equal(await count('memories WHERE user_id = $1', [userId]), 3);
        assert.equal(await count('sessions WHERE user_id = $1', [userId]), 1);
        assert.equal((await t.app.inject({ url: '/me', headers: { 'x-session-token': token } })).statusCode, 200);

        const { key: nsKey } = await makeKey(t.db, t.orgId, { namespaceId: nsB });
        assertEnvelope(await call('DELETE', `/v1/user?user_id=${userId}&namespace_id=${nsA}`, undefined, nsKey), 403);
        const r2 = await call('DELETE', `/v1/user/${userId}`, undefined, nsKey);
        assert.equal(r2.statusCode, 200, r2.body);
        assert.deepEqual([r2.json().memories_deleted, r2.json().user_deleted], [2, false]);
        assert.equal(await count('memories WHERE user_id = $1', [userId]), 1);
        assert.equal(await count('users WHERE id = $1', [userId]), 1);
        assertEnvelope(await call('DELETE', `/v1/user?user_id=${userId}&namespace_id=does-not-exist`), 404);
        assertEnvelope(await call('DELETE', `/v1/user?user_id=${userId}&external_user_id=someone-else`), 422);
      },
    );

    describe('auth kit', () => {
      const kit = authKitFor(() => t);
      kit(
        'POST /v1/user',
        'POST',
        () => '/v1/user',
        'write',
        () => ({ external_id: `kit-${Math.random()}` }),
        async (res: any) => {
          assert.equal(res.statusCode, 200, res.body);
          assertEnvelope(await call('GET', `/v1/user/${res.json().user_id}`), 404);
        },
      );
      kit(
        'POST /v1/user/batch',
        'POST',
        () => '/v1/user/batch',
        'write',
        () => ({ users: [{ external_id: `kit-${Math.random()}` }] }),
        async (res: any) => {
          assert.equal(res.statusCode, 200, res.body);
          assertEnvelope(await call('GET', `/v1/user/${res.json().data[0].user_id}`), 404);
        },
      );
      kit(
        'GET /v1/user',
        'GET',
        () => '/v1/user',
        'read',
        undefined,
        (res: any) => {
          assert.equal(res.statusCode, 200);
          assert.ok(!res.json().data.some((u: any) => u.user_id === known));
        },
      );
      kit('GET /v1/user/:id', 'GET', () => `/v1/user/${known}`, 'read');
      kit(
        'PUT /v1/user/:id',
        'PUT',
        () => `/v1/user/${known}`,
        'write',
        () => ({ email: 'kit@example.com' }),
      );
      kit('DELETE /v1/user/:id', 'DELETE', () => `/v1/user/${known}`, 'delete');
      kit('DELETE /v1/user', 'DELETE', () => '/v1/user?external_user_id=kit-user', 'delete');
    });
  });

  // Issue #17 finding 5, for users: requests racing on one user answer a success, a 400 or a
  // 404 in the error envelope, never a 5xx.
  describe(`user races [${store.name}]`, () => {
    const { t, interleave, call } = racingApp(store);

    it('concurrent renames to one free external_id: one wins (200), the others are 400, never 5xx', async () => {
      for (let round = 0; round < 20; round++) {
        const ids = await Promise.all(
          [0, 1, 2].map(
            async (i) => (await call('POST', '/v1/user', { external_id: `ren-${round}-${i}` })).json().user_id,
          ),
        );
        const answers = await Promise.all(
          ids.map((id) => call('PUT', `/v1/user/${id}`, { external_id: `won-${round}` })),
        );
        const codes = answers.map((a) => a.statusCode).sort();
        assert.deepEqual(codes, [200, 400, 400], `round ${round}: ${answers.map((a) => a.body).join(' | ')}`);
        for (const a of answers.filter((x) => x.statusCode === 400)) assertEnvelope(a, 400);
      }
    });

    it('two deletes of one user and a write for it: one delete succeeds, the other is 404, never 5xx', async () => {
      for (let round = 0; round < 30; round++) {
        const ext = `twice-${round}`;
        const id = (await call('POST', '/v1/user', { external_id: ext })).json().user_id;
        await addMemory(t, { content: `Note ${round} of a doomed user.`, external_user_id: ext });
        const del = () => call('DELETE', `/v1/user/${id}`);
        const write = () => call('POST', '/v1/memory', { content: `Late note ${round}.`, external_user_id: ext });
        let answers;
        if (round % 2 === 0) {
          // The second DELETE runs right after the first one looked the user up.
          const second = interleave.after(
            (sql) => /FROM users WHERE organization_id = \$1 AND id = \$2/.test(sql),
            del,
          );
          const first = await del();
          interleave.flush();
          answers = [first, await second, await write()];
        } else {
          answers = await Promise.all([del(), turns(round % 5).then(del), turns(round % 3).then(write)]);
        }
        for (const a of answers)
          assert.ok([200, 404].includes(a.statusCode), `round ${round}: ${a.statusCode} ${a.body}`);
        const deletes = answers
          .slice(0, 2)
          .map((a) => a.statusCode)
          .sort();
        assert.deepEqual(deletes, [200, 404], `round ${round}: ${answers.map((a) => a.body).join(' | ')}`);
        assertEnvelope(
          answers.find((a) => a.statusCode === 404)!,
          404,
        );
        assert.equal(answers[2].statusCode, 200, 'a write for a deleted external user creates it again');
      }
    });
  });
}
