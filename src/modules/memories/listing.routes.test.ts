import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeSession } from '../../../test/factories.ts';
import { addMemory, post } from '../../../test/memory-helpers.ts';
import { parseInstant } from './listing.schemas.ts';

interface Listed {
  id: string;
  content: string;
  createdAt: string;
  user_id: string;
}

for (const store of testStores) {
  describe(`listing memories: GET /v1/memory [${store.name}]`, () => {
    let t: TestApp;
    let ns: string;
    const ids: Record<string, string> = {};
    before(async () => {
      t = await startApp(store);
      ns = await makeNamespace(t.db, t.orgId);
      ids.fact = await addMemory(t, {
        content: 'Ana is allergic to cats.',
        external_user_id: 'ana',
        metadata: { category: 'facts', role: 'user', topics: ['health'] },
      });
      ids.pref = await addMemory(t, {
        content: 'Ana prefers window seats.',
        external_user_id: 'ana',
        metadata: { category: 'preference', role: 'assistant', customMetadata: { source: 'chat' } },
      });
      ids.ns = await addMemory(t, { content: 'Ana’s namespaced note.', external_user_id: 'ana', namespace_id: ns });
      ids.bob = await addMemory(t, {
        content: 'Bob shares a note with Ana.',
        external_user_id: 'bob',
        policy: { acl: { read: ['ana'] } },
      });
      // One batch group: one transaction, so these share one created_at and are ordered by id.
      const batch = await post(t, '/v1/memory/batch', {
        external_user_id: 'cy',
        memories: Array.from({ length: 7 }, (_, i) => ({ content: `Cy batch memory ${i}.` })),
      });
      assert.equal(batch.statusCode, 200, batch.body);
    });
    after(() => t.close());

    const list = (query = '', headers: Record<string, string> = { 'x-api-key': t.key }) =>
      t.app.inject({ method: 'GET', url: `/v1/memory${query}`, headers });
    async function page(query = '', headers?: Record<string, string>) {
      const res = await list(query, headers);
      assert.equal(res.statusCode, 200, res.body);
      const b = res.json();
      return {
        memories: b.data.memories as Listed[],
        next: b.next_cursor as string | null,
        more: b.has_more as boolean,
      };
    }
    /** Every page of `query` with pages of `limit`, in order. */
    async function walk(query: string, limit: number, from: string | null = null) {
      const all: Listed[] = [];
      let cursor: string | null = from;
      for (let i = 0; i < 50; i++) {
        const sep = query ? '&' : '?';
        const p = await page(`${query}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        all.push(...p.memories);
        assert.equal(p.more, p.next !== null);
        if (!p.next) return all;
        cursor = p.next;
      }
      throw new Error('too many pages');
    }

    it('lists the organization’s memories newest first, by (created_at, id), in keyset pages', async () => {
      const first = await page();
      assert.equal(first.memories.length, 11, 'the default page (20) holds all of them');
      assert.equal(first.next, null);
      assert.equal(first.more, false);
      const rows = await t.db.query<{ id: string }>(`SELECT id FROM memories ORDER BY created_at DESC, id DESC`);
      assert.deepEqual(
        first.memories.map((m) => m.id),
        rows.map((r) => r.id),
      );
      for (const limit of [1, 2, 3, 5]) {
        const walked = await walk('', limit);
        assert.deepEqual(
          walked.map((m) => m.id),
          rows.map((r) => r.id),
          `pages of ${limit}`,
        );
      }
      // The batch's seven share one created_at: the id orders them, across page boundaries too.
      const cy = await walk('?external_user_id=cy', 3);
      assert.equal(new Set(cy.map((m) => m.createdAt)).size, 1);
      assert.deepEqual(
        cy.map((m) => m.id),
        [...cy.map((m) => m.id)].sort().reverse(),
      );
    });

    it('pages after a cursor neither repeat nor skip when memories are added meanwhile', async () => {
      const p1 = await page('?external_user_id=cy&limit=3');
      await addMemory(t, { content: 'Cy memory added between pages.', external_user_id: 'cy' });
      const rest = await walk('?external_user_id=cy', 3, p1.next);
      const seen = [...p1.memories, ...rest].map((m) => m.content);
      assert.equal(seen.length, 7);
      assert.equal(new Set(seen).size, 7);
      assert.ok(!seen.includes('Cy memory added between pages.'));
      assert.equal((await page('?external_user_id=cy')).memories[0].content, 'Cy memory added between pages.');
    });

    it('filters: user, namespace, metadata JSON, category (fact = facts), role, created_after / before', async () => {
      const contents = async (q: string) => (await page(q)).memories.map((m) => m.content);
      assert.deepEqual((await contents('?external_user_id=ana')).length, 3);
      const anaId = (await page('?external_user_id=ana')).memories[0].user_id;
      assert.deepEqual(await contents(`?user_id=${anaId}`), await contents('?external_user_id=ana'));
      assert.deepEqual(await contents(`?namespace_id=${ns}`), ['Ana’s namespaced note.']);
      assert.deepEqual(await contents('?category=fact'), ['Ana is allergic to cats.']);
      assert.deepEqual(await contents('?category=facts'), ['Ana is allergic to cats.']);
      assert.deepEqual(await contents('?role=assistant'), ['Ana prefers window seats.']);
      const meta = (m: object) => `?metadata=${encodeURIComponent(JSON.stringify(m))}`;
      assert.deepEqual(await contents(meta({ topics: ['health'] })), ['Ana is allergic to cats.']);
      assert.deepEqual(await contents(meta({ customMetadata: { source: 'chat' } })), ['Ana prefers window seats.']);
      assert.deepEqual(await contents(`${meta({ role: 'user' })}&role=assistant`), ['Ana prefers window seats.']);
      assert.deepEqual(await contents('?external_user_id=nobody'), []);
      assert.deepEqual(await contents('?user_id=nobody'), []);
      // Time: the fact was stored before the preference.
      const all = (await page('?external_user_id=ana')).memories;
      const at = (id: string) => all.find((m) => m.id === id)!.createdAt;
      const after = await contents(`?external_user_id=ana&created_after=${encodeURIComponent(at(ids.fact))}`);
      assert.ok(!after.includes('Ana is allergic to cats.') && after.includes('Ana prefers window seats.'));
      const before = await contents(`?external_user_id=ana&created_before=${encodeURIComponent(at(ids.pref))}`);
      assert.deepEqual(before, ['Ana is allergic to cats.']);
      assert.equal((await contents('?created_after=2999-01-01')).length, 0);
      assert.equal((await contents('?created_before=2000-01-01T00:00:00%2B02:00')).length, 0);
      // Empty values are absent; unknown parameters are ignored.
      assert.equal((await contents('?external_user_id=&limit=&cursor=&whatever=1')).length, 12);
    });

    it('malformed cursor, dates, metadata, limit and role are a 422 naming the parameter', async () => {
      const forged = Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url');
      const bad: [string, string][] = [
        ['?cursor=not-a-cursor', 'cursor'],
        [`?cursor=${forged}`, 'cursor'],
        ['?created_after=yesterday', 'created_after'],
        ['?created_before=2024-02-31', 'created_before'],
        ['?created_after=2024-01-01T25:00', 'created_after'],
        ['?created_after=0000-01-01', 'created_after'],
        ['?metadata=%7Bnot json', 'metadata'],
        ['?metadata=%5B1%2C2%5D', 'metadata'],
        ['?metadata=null', 'metadata'],
        ['?limit=0', 'limit'],
        ['?limit=201', 'limit'],
        ['?limit=ten', 'limit'],
        ['?role=robot', 'role'],
      ];
      for (const [q, field] of bad) {
        const e = assertEnvelope(await list(q), 422);
        assert.ok(
          e.details.issues.some((i: { field: string }) => i.field === field),
          `${q}: ${JSON.stringify(e.details)}`,
        );
      }
      assert.equal((await page('?limit=200')).memories.length, 12);
    });

    it('a namespace key lists its namespace only; an end user what they own or is shared with them', async () => {
      const { key } = await makeKey(t.db, t.orgId, { namespaceId: ns, permissions: ['read'] });
      assert.deepEqual(
        (await page('', { 'x-api-key': key })).memories.map((m) => m.id),
        [ids.ns],
      );
      assertEnvelope(await list('?namespace_id=elsewhere', { 'x-api-key': key }), 403);
      const ana = await makeSession(t.db, t.orgId, 'ana');
      const mine = await page('', { 'x-session-token': ana.token });
      assert.deepEqual(mine.memories.map((m) => m.id).sort(), [ids.fact, ids.pref, ids.ns, ids.bob].sort());
      const own = await page('?external_user_id=ana', { 'x-session-token': ana.token });
      assert.equal(own.memories.length, 3, 'naming themselves: their own memories');
      assertEnvelope(await list('?external_user_id=bob', { 'x-session-token': ana.token }), 403);
    });

    it('the other /v1/memory routes are unaffected', async () => {
      const one = await t.app.inject({ method: 'GET', url: `/v1/memory/${ids.fact}`, headers: { 'x-api-key': t.key } });
      assert.equal(one.statusCode, 200, one.body);
      assert.equal(one.json().data.memories[0].id, ids.fact);
      assert.equal((await list('/')).statusCode, 200, 'a trailing slash lists');
      const status = await t.app.inject({
        method: 'GET',
        url: `/v1/memory/status/${ids.fact}`,
        headers: { 'x-api-key': t.key },
      });
      assert.equal(status.statusCode, 200, status.body);
      const all = await t.app.inject({
        method: 'DELETE',
        url: '/v1/memory/all?external_user_id=nobody',
        headers: { 'x-api-key': t.key },
      });
      assertEnvelope(all, 404);
    });

    it('parseInstant: dates, date-times, offsets, fractions; impossible days refused', () => {
      assert.equal(parseInstant('2024-03-01')?.toISOString(), '2024-03-01T00:00:00.000Z');
      assert.equal(parseInstant('2024-03-01T10:20')?.toISOString(), '2024-03-01T10:20:00.000Z');
      assert.equal(parseInstant('2024-03-01T10:20:30.123456+0200')?.toISOString(), '2024-03-01T08:20:30.123Z');
      assert.equal(parseInstant('2024-02-30'), null);
      assert.equal(parseInstant('9999-12-31T23:00:00-14:00'), null);
      assert.equal(parseInstant('03/01/2024'), null);
    });

    const kit = authKitFor(() => t);
    kit(
      'list',
      'GET',
      () => '/v1/memory',
      'read',
      undefined,
      (res) => {
        // Another organization lists its own memories (none), never these.
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json().data.memories, []);
      },
    );
  });
}
