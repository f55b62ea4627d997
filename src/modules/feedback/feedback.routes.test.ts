import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { addMemory, post } from '../../../test/memory-helpers.ts';
import { FEEDBACK_SOURCES, FEEDBACK_TYPES } from './feedback.schemas.ts';

const thumbsUp = { feedbackType: 'thumbs_up', feedbackSource: 'inline' };

for (const store of testStores) {
  describe(`feedback [${store.name}]`, () => {
    let t: TestApp;
    let ns: string;
    /** A search of ana's (organization key) and the ids it returned. */
    let anaSearch: { id: string; ids: string[] };
    let feedbackIdForKit = 'unset';
    before(async () => {
      t = await startApp(store);
      ns = await makeNamespace(t.db, t.orgId);
      for (const content of [
        'Ana keeps her passport in the blue drawer of the hall cabinet.',
        'Ana renewed her passport at the embassy last spring.',
        'The hall cabinet has three drawers and a mirror.',
      ])
        await addMemory(t, { content, external_user_id: 'ana' });
      await addMemory(t, {
        content: 'Ana keeps her spare keys in the namespace box.',
        external_user_id: 'ana',
        namespace_id: ns,
      });
      anaSearch = await search({ query: 'Where is Ana’s passport?', external_user_id: 'ana' });
    });
    after(() => t.close());

    async function search(body: object, key = t.key, headers: Record<string, string> = {}) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/memory/search',
        headers: { 'x-api-key': key, ...headers },
        payload: body,
      });
      assert.equal(res.statusCode, 200, res.body);
      const b = res.json();
      return { id: b.search_id as string, ids: b.data.memories.map((m: { id: string }) => m.id) as string[] };
    }
    const submit = (body: object, key = t.key, headers: Record<string, string> = { 'x-api-key': key }) =>
      t.app.inject({ method: 'POST', url: '/v1/feedback', headers, payload: body });
    const get = (id: string, headers: Record<string, string> = { 'x-api-key': t.key }) =>
      t.app.inject({ method: 'GET', url: `/v1/feedback/${encodeURIComponent(id)}`, headers });
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM feedback'))[0].n;

    it('stores feedback against its search; GET returns it with the FeedbackResponse fields', async () => {
      const res = await submit({
        search_id: anaSearch.id,
        feedbackData: {
          ...thumbsUp,
          feedbackText: 'Exactly right',
          citedMemoryIds: [anaSearch.ids[0]],
          userMessage: { className: 'PostMessage', objectId: 'm1', __type: 'Pointer' },
        },
        external_user_id: 'ana',
      });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.code, 200);
      assert.equal(body.status, 'success');
      assert.equal(typeof body.message, 'string');
      assert.equal(body.error, null);
      assert.deepEqual(body.details, { search_id: anaSearch.id, signal: 1, memories_signalled: 1 });
      const got = await get(body.feedback_id);
      assert.equal(got.statusCode, 200, got.body);
      const g = got.json();
      assert.equal(g.feedback_id, body.feedback_id);
      assert.equal(g.feedback.search_id, anaSearch.id);
      assert.equal(g.feedback.feedbackData.feedbackText, 'Exactly right');
      assert.deepEqual(g.feedback.feedbackData.citedMemoryIds, [anaSearch.ids[0]]);
      assert.equal(g.feedback.feedbackData.userMessage.objectId, 'm1');
      assert.ok(!Number.isNaN(Date.parse(g.feedback.created_at)));
    });

    it('accepts every feedbackType and feedbackSource of the contract', async () => {
      for (const [i, feedbackType] of FEEDBACK_TYPES.entries()) {
        const feedbackSource = FEEDBACK_SOURCES[i % FEEDBACK_SOURCES.length];
        const res = await submit({ search_id: anaSearch.id, feedbackData: { feedbackType, feedbackSource } });
        assert.equal(res.statusCode, 200, `${feedbackType}: ${res.body}`);
        assert.equal(res.json().details.memories_signalled, 0, 'nothing cited, nothing moves');
      }
    });

    it('malformed feedback is a 422 naming the field, and nothing is stored', async () => {
      const before = await count();
      const bad: [object, string][] = [
        [{ feedbackData: thumbsUp }, 'search_id'],
        [{ search_id: anaSearch.id }, 'feedbackData'],
        [{ search_id: anaSearch.id, feedbackData: { ...thumbsUp, feedbackType: 'love' } }, 'feedbackData.feedbackType'],
        [
          { search_id: anaSearch.id, feedbackData: { ...thumbsUp, feedbackSource: 'email' } },
          'feedbackData.feedbackSource',
        ],
        [{ search_id: anaSearch.id, feedbackData: { feedbackSource: 'inline' } }, 'feedbackData.feedbackType'],
        [
          { search_id: anaSearch.id, feedbackData: { ...thumbsUp, feedbackScore: 'high' } },
          'feedbackData.feedbackScore',
        ],
        [
          { search_id: anaSearch.id, feedbackData: { ...thumbsUp, citedMemoryIds: 'x' } },
          'feedbackData.citedMemoryIds',
        ],
        [{ search_id: anaSearch.id, feedbackData: { ...thumbsUp, citedNodeIds: [1] } }, 'feedbackData.citedNodeIds.0'],
        [
          { search_id: anaSearch.id, feedbackData: { ...thumbsUp, userMessage: { className: 'PostMessage' } } },
          'feedbackData.userMessage.objectId',
        ],
        [
          { search_id: anaSearch.id, feedbackData: { ...thumbsUp, assistantMessage: 'm2' } },
          'feedbackData.assistantMessage',
        ],
        [
          {
            search_id: anaSearch.id,
            feedbackData: { feedbackType: 'rating', feedbackSource: 'inline', feedbackScore: 7 },
          },
          'feedbackData.feedbackScore',
        ],
        [
          {
            search_id: anaSearch.id,
            feedbackData: { feedbackType: 'memory_relevance', feedbackSource: 'inline', feedbackScore: 3 },
          },
          'feedbackData.feedbackScore',
        ],
        [
          { search_id: anaSearch.id, feedbackData: { ...thumbsUp, feedbackProcessed: 'yes' } },
          'feedbackData.feedbackProcessed',
        ],
      ];
      for (const [body, field] of bad) {
        const e = assertEnvelope(await submit(body), 422);
        assert.ok(
          e.details.issues.some((i: { field: string }) => i.field === field),
          `${field}: ${JSON.stringify(e.details)}`,
        );
      }
      assertEnvelope(await t.app.inject({ method: 'POST', url: '/v1/feedback', headers: { 'x-api-key': t.key } }), 422);
      const cited = assertEnvelope(
        await submit({ search_id: anaSearch.id, feedbackData: { ...thumbsUp, citedMemoryIds: ['not-returned'] } }),
        422,
      );
      assert.equal(cited.details.field, 'feedbackData.citedMemoryIds');
      assert.deepEqual(cited.details.not_in_results, ['not-returned']);
      assert.equal(await count(), before);
    });

    it('unknown or foreign searches are 404; a foreign organization_id is 422; mismatched fields 422', async () => {
      assertEnvelope(await submit({ search_id: 'no-such-search', feedbackData: thumbsUp }), 404);
      const other = await makeOrg(t.db);
      assertEnvelope(await submit({ search_id: anaSearch.id, feedbackData: thumbsUp }, other.key), 404);
      const org = assertEnvelope(
        await submit({ search_id: anaSearch.id, feedbackData: thumbsUp, organization_id: other.organizationId }),
        422,
      );
      assert.deepEqual(org.details, { fields: ['organization_id'] });
      const mismatch = assertEnvelope(
        await submit({ search_id: anaSearch.id, feedbackData: thumbsUp, external_user_id: 'bob', namespace_id: ns }),
        422,
      );
      assert.deepEqual(mismatch.details.fields.sort(), ['external_user_id', 'namespace_id']);
      // The credential's own organization is accepted.
      assert.equal(
        (await submit({ search_id: anaSearch.id, feedbackData: thumbsUp, organization_id: t.orgId })).statusCode,
        200,
      );
    });

    it('a namespace key reaches only its namespace’s searches and feedback', async () => {
      const mine = await makeKey(t.db, t.orgId, { namespaceId: ns });
      const otherNs = await makeKey(t.db, t.orgId, { namespaceId: await makeNamespace(t.db, t.orgId) });
      const inNs = await search({ query: 'spare keys', external_user_id: 'ana' }, mine.key);
      assert.equal(inNs.ids.length, 1);
      assertEnvelope(await submit({ search_id: inNs.id, feedbackData: thumbsUp }, otherNs.key), 404);
      assertEnvelope(await submit({ search_id: anaSearch.id, feedbackData: thumbsUp }, mine.key), 404);
      assertEnvelope(
        await submit({ search_id: inNs.id, feedbackData: thumbsUp, namespace_id: 'elsewhere' }, mine.key),
        403,
      );
      const res = await submit(
        { search_id: inNs.id, feedbackData: { ...thumbsUp, citedMemoryIds: inNs.ids } },
        mine.key,
      );
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().feedback_id;
      assert.equal((await get(id, { 'x-api-key': mine.key })).statusCode, 200);
      assertEnvelope(await get(id, { 'x-api-key': otherNs.key }), 404);
    });

    it('an end user’s own token: only their own searches, never naming another user', async () => {
      const cara = await makeSession(t.db, t.orgId, 'cara');
      await addMemory(t, { content: 'Cara walks her dog at seven.', external_user_id: 'cara' });
      const headers = { 'x-session-token': cara.token };
      const own = await search({ query: 'dog walk' }, '', headers);
      const res = await submit(
        { search_id: own.id, feedbackData: { ...thumbsUp, citedMemoryIds: own.ids } },
        '',
        headers,
      );
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await get(res.json().feedback_id, headers)).statusCode, 200);
      assertEnvelope(await submit({ search_id: anaSearch.id, feedbackData: thumbsUp }, '', headers), 404);
      assertEnvelope(
        await submit({ search_id: own.id, feedbackData: thumbsUp, external_user_id: 'ana' }, '', headers),
        403,
      );
      const anas = await submit({ search_id: anaSearch.id, feedbackData: thumbsUp });
      assertEnvelope(await get(anas.json().feedback_id, headers), 404);
    });

    it('batch: each item stored or refused on its own; 200, 207 partial, 422 when none', async () => {
      const item = (over: object = {}) => ({ search_id: anaSearch.id, feedbackData: thumbsUp, ...over });
      const batch = (items: unknown[], session_context?: object) =>
        post(t, '/v1/feedback/batch', { feedback_items: items, session_context });
      const before = await count();
      const all = await batch([item(), item({ feedbackData: { ...thumbsUp, citedMemoryIds: [anaSearch.ids[1]] } })], {
        conversation: 'c1',
      });
      assert.equal(all.statusCode, 200, all.body);
      const a = all.json();
      assert.equal(a.status, 'success');
      assert.equal(a.successful_count, 2);
      assert.equal(a.failed_count, 0);
      assert.deepEqual(a.errors, []);
      assert.equal(a.feedback_ids.length, 2);
      const stored = (await get(a.feedback_ids[0])).json().feedback;
      assert.deepEqual(stored.session_context, { conversation: 'c1' });

      const mixed = await batch([
        item(),
        { search_id: anaSearch.id, feedbackData: { feedbackType: 'nope', feedbackSource: 'inline' } },
        item({ search_id: 'unknown-search' }),
        item({ feedbackData: { ...thumbsUp, citedMemoryIds: ['not-returned'] } }),
        'not an object',
      ]);
      assert.equal(mixed.statusCode, 207, mixed.body);
      const m = mixed.json();
      assert.equal(m.status, 'partial');
      assert.equal(m.code, 207);
      assert.equal(m.successful_count, 1);
      assert.equal(m.failed_count, 4);
      assert.deepEqual(
        m.errors.map((e: { index: number; code: number }) => [e.index, e.code]),
        [
          [1, 422],
          [2, 404],
          [3, 422],
          [4, 422],
        ],
      );
      const none = await batch([item({ search_id: 'unknown-search' })]);
      assert.equal(none.statusCode, 422, none.body);
      assert.equal(none.json().status, 'error');
      assert.equal(none.json().successful_count, 0);
      assert.equal(await count(), before + 3, 'exactly the stored items, nothing of the refused ones');
      assertEnvelope(await batch([]), 422);
      assertEnvelope(await batch(Array.from({ length: 101 }, () => item())), 422);
      assertEnvelope(await post(t, '/v1/feedback/batch', { feedback_items: [item()], session_context: 'x' }), 422);
    });

    it('GET of an unknown feedback id is a 404', async () => {
      assertEnvelope(await get('no-such-feedback'), 404);
    });

    it('deleting the searched user deletes their feedback', async () => {
      await addMemory(t, { content: 'Dora likes plums.', external_user_id: 'dora' });
      const s = await search({ query: 'plums', external_user_id: 'dora' });
      const res = await submit({ search_id: s.id, feedbackData: { ...thumbsUp, citedMemoryIds: s.ids } });
      const id = res.json().feedback_id;
      const del = await t.app.inject({
        method: 'DELETE',
        url: '/v1/user/dora?is_external=true',
        headers: { 'x-api-key': t.key },
      });
      assert.equal(del.statusCode, 200, del.body);
      assertEnvelope(await get(id), 404);
      assertEnvelope(await submit({ search_id: s.id, feedbackData: thumbsUp }), 404);
    });

    const kit = authKitFor(() => t);
    kit(
      'submit',
      'POST',
      () => '/v1/feedback',
      'write',
      () => ({ search_id: anaSearch.id, feedbackData: thumbsUp }),
    );
    kit(
      'batch',
      'POST',
      () => '/v1/feedback/batch',
      'write',
      () => ({ feedback_items: [{ search_id: anaSearch.id, feedbackData: thumbsUp }] }),
      (res) => {
        // Another organization's key: its one item is refused as not found, so the batch stored nothing.
        assert.equal(res.statusCode, 422, res.body);
        assert.deepEqual(
          res.json().errors.map((e: { code: number }) => e.code),
          [404],
        );
      },
    );
    kit('get', 'GET', () => `/v1/feedback/${feedbackIdForKit}`, 'read');
    before(async () => {
      feedbackIdForKit = (await submit({ search_id: anaSearch.id, feedbackData: thumbsUp })).json().feedback_id;
    });
  });
}
