import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';
import { makeSession } from '../../../test/factories.ts';
import { addMemory, searchContents } from '../../../test/memory-helpers.ts';

/** ACLs, consent and risk: narrowing filters in SQL, and end users limited to what is theirs or shared. */
for (const store of testStores) {
  describe(`access: ACL, consent, risk [${store.name}]`, () => {
    let t: TestApp;
    const ids: Record<string, string> = {};
    before(async () => {
      t = await startApp(store);
      const add = (name: string, policy: object) =>
        addMemory(t, { content: `Harbor note ${name}.`, external_user_id: 'hana', policy }).then(
          (id) => (ids[name] = id),
        );
      await add('plain', {});
      await add('explicit', { consent: 'explicit' });
      await add('noconsent', { consent: 'none' });
      await add('sensitive', { risk: 'sensitive' });
      await add('flagged', { risk: 'flagged' });
      await add('shared', { acl: { read: [`organization:${t.orgId}`], write: ['external_user:bo'] } });
    });
    after(() => t.close());
    const search = (body: object) =>
      searchContents(t, { query: 'harbor note', external_user_id: 'hana', ...body }, '?max_memories=50');
    const names = (contents: string[]) => contents.map((c) => c.replace(/^Harbor note (\w+)\.$/, '$1')).sort();

    it('omo_filter narrows by consent and risk', async () => {
      assert.equal((await search({})).length, 6);
      assert.deepEqual(names(await search({ omo_filter: { exclude_flagged: true } })), [
        'explicit',
        'noconsent',
        'plain',
        'sensitive',
        'shared',
      ]);
      assert.deepEqual(names(await search({ omo_filter: { max_risk: 'none' } })), [
        'explicit',
        'noconsent',
        'plain',
        'shared',
      ]);
      assert.deepEqual(names(await search({ omo_filter: { require_consent: true, max_risk: 'none' } })), [
        'explicit',
        'plain',
        'shared',
      ]);
      assert.deepEqual(names(await search({ omo_filter: { min_consent: 'explicit' } })), ['explicit']);
      assert.deepEqual(
        names(await search({ omo_filter: { exclude_risk: ['sensitive', 'flagged'], exclude_consent: ['none'] } })),
        ['explicit', 'plain', 'shared'],
      );
    });

    it('search_acl requires every listed entity to have read access', async () => {
      assert.deepEqual(names(await search({ search_acl: { read: [`organization:${t.orgId}`] } })), ['shared']);
      assert.equal((await search({ search_acl: { read: ['hana'] } })).length, 6, 'a bare id means external_user:');
      assert.deepEqual(await search({ search_acl: { read: ['external_user:stranger'] } }), []);
    });

    it('GET applies the safety query parameters (a filtered memory is not found)', async () => {
      const get = (id: string, q = '') =>
        t.app.inject({ url: `/v1/memory/${id}${q}`, headers: { 'x-api-key': t.key } });
      assert.equal((await get(ids.flagged)).statusCode, 200);
      assertEnvelope(await get(ids.flagged, '?exclude_flagged=true'), 404);
      assertEnvelope(await get(ids.sensitive, '?max_risk=none'), 404);
      assertEnvelope(await get(ids.noconsent, '?require_consent=true'), 404);
      assert.equal((await get(ids.plain, '?require_consent=true&max_risk=none')).statusCode, 200);
    });

    it(
      'an end user with a session token reaches what they own or what is shared, ' +
        'and writes only with write access',
      async () => {
        const hana = await makeSession(t.db, t.orgId, 'hana');
        const bo = await makeSession(t.db, t.orgId, 'bo');
        const cy = await makeSession(t.db, t.orgId, 'cy');
        const as = (s: { token: string }) => ({ 'x-session-token': s.token });
        const get = (id: string, s: { token: string }) => t.app.inject({ url: `/v1/memory/${id}`, headers: as(s) });
        const put = (id: string, s: { token: string }) =>
          t.app.inject({
            method: 'PUT',
            url: `/v1/memory/${id}`,
            headers: as(s),
            payload: { metadata: { category: 'task' } },
          });
        const del = (id: string, s: { token: string }) =>
          t.app.inject({ method: 'DELETE', url: `/v1/memory/${id}`, headers: as(s) });
        assert.equal((await get(ids.plain, hana)).statusCode, 200);
        assert.equal((await get(ids.flagged, hana)).statusCode, 200, 'the owner sees their flagged memory');
        assertEnvelope(await get(ids.plain, bo), 404);
        assertEnvelope(await get(ids.flagged, bo), 404);
        assert.equal((await get(ids.shared, cy)).statusCode, 200, 'shared with the organization');
        assertEnvelope(await put(ids.shared, cy), 403);
        assertEnvelope(await del(ids.shared, cy), 403);
        assert.equal((await put(ids.shared, bo)).statusCode, 200, 'bo is on the write list');
        assertEnvelope(await put(ids.plain, bo), 404);
        assertEnvelope(await del(ids.plain, bo), 404);
        assert.equal((await del(ids.explicit, hana)).statusCode, 200);
      },
    );

    it('a policy.acl update changes the lists', async () => {
      const id = await addMemory(t, { content: 'Harbor memo to share later.', external_user_id: 'hana' });
      const dee = await makeSession(t.db, t.orgId, 'dee');
      assertEnvelope(await t.app.inject({ url: `/v1/memory/${id}`, headers: { 'x-session-token': dee.token } }), 404);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/memory/${id}`,
        headers: { 'x-api-key': t.key },
        payload: { policy: { acl: { read: ['dee'] } } },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(
        (await t.app.inject({ url: `/v1/memory/${id}`, headers: { 'x-session-token': dee.token } })).statusCode,
        200,
      );
    });
    it("search shows other users' memories shared with the reader, never their unshared or flagged ones", async () => {
      const session = { sessionId: 'lh-1' };
      const add = (content: string, policy: object, minute: number) =>
        addMemory(t, {
          content,
          external_user_id: 'alma',
          policy,
          metadata: session,
          timestamp: `2026-01-01T10:0${minute}:00Z`,
        } as any);
      const shared = await add('Lighthouse plan shared with ben.', { acl: { read: ['ben'] } }, 1);
      await add('Lighthouse private diary of alma.', {}, 2);
      await add('Lighthouse flagged note for ben.', { acl: { read: ['ben'] }, risk: 'flagged' }, 3);
      const lh = (body: object, headers?: Record<string, string>) =>
        t.app
          .inject({
            method: 'POST',
            url: '/v1/memory/search?max_memories=50',
            headers: headers ?? { 'x-api-key': t.key },
            payload: { query: 'lighthouse', ...body },
          })
          .then((r) => {
            assert.equal(r.statusCode, 200, r.body);
            // Dense retrieval also brings the organization-wide 'Harbor note shared.' from above: keep
            // this test's memories.
            return r
              .json()
              .data.memories.map((m: { content: string }) => m.content)
              .filter((c: string) => c.startsWith('Lighthouse'))
              .sort();
          });
      // ben has never stored a memory: what is shared with his external id still reaches him.
      assert.deepEqual(await lh({ external_user_id: 'ben' }), ['Lighthouse plan shared with ben.']);
      const ben = await makeSession(t.db, t.orgId, 'ben');
      assert.deepEqual(await lh({}, { 'x-session-token': ben.token }), ['Lighthouse plan shared with ben.']);
      assert.deepEqual(await lh({ external_user_id: 'cyd' }), []);
      assert.equal((await lh({ external_user_id: 'alma' })).length, 3, 'the owner sees all three');
      // Revoking the share hides it again.
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/memory/${shared}`,
        headers: { 'x-api-key': t.key },
        payload: { policy: { acl: { read: [] } } },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(await lh({ external_user_id: 'ben' }), []);
    });
  });
}
