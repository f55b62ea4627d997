import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decode } from '@toon-format/toon';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace } from '../../../test/factories.ts';
import { addMemory, post, searchContents } from '../../../test/memory-helpers.ts';
import { bm25 } from './search.store.ts';
import { sessionNeighbours } from './neighbours.store.ts';
import { queryTerms } from '../../platform/text-analyzer.ts';

for (const store of testStores) {
  describe(`search [${store.name}]`, () => {
    let t: TestApp;
    let ns: string;
    before(async () => {
      t = await startApp(store);
      ns = await makeNamespace(t.db, t.orgId);
      const mems = [
        {
          content: 'Priya loves climbing and goes bouldering every Tuesday.',
          metadata: { role: 'user', category: 'preference', customMetadata: { source: 'chat' } },
        },
        { content: 'Priya is allergic to peanuts.', metadata: { role: 'user', category: 'facts', team: 'red' } },
        { content: 'I suggested a climbing gym near her office.', metadata: { role: 'assistant', category: 'skills' } },
        {
          content: 'Quarterly report is due on Friday.',
          metadata: { role: 'user', category: 'task', customMetadata: { source: 'email' } },
        },
      ];
      for (const m of mems) await addMemory(t, { ...m, external_user_id: 'priya' });
      for (let i = 0; i < 30; i++)
        await post(t, '/v1/memory/batch', {
          external_user_id: 'many',
          memories: [{ content: `Climbing log entry ${i}: routes and grades.` }],
        });
      await addMemory(t, { content: 'Namespaced climbing memory.', external_user_id: 'priya', namespace_id: ns });
      await addMemory(t, { content: 'Someone else climbs too.', external_user_id: 'zoe' });
    });
    after(() => t.close());

    it('ranks the matching memory first, only for the user asked about', async () => {
      const found = await searchContents(t, {
        query: 'Which sport does Priya enjoy climbing?',
        external_user_id: 'priya',
      });
      assert.ok(found[0].includes('climbing') || found[0].includes('Climbing'), found.join(' | '));
      assert.ok(!found.some((c) => c.includes('Someone else')));
      const allergy = await searchContents(t, { query: 'peanut allergy', external_user_id: 'priya' });
      assert.equal(allergy[0], 'Priya is allergic to peanuts.');
    });

    it('BM25 scores the same from the postings, from the scope first, or by the planner', async () => {
      const [{ id: userId }] = await t.db.query<{ id: string }>(
        "SELECT id FROM users WHERE organization_id = $1 AND external_id = 'many'",
        [t.orgId],
      );
      const scope = { organizationId: t.orgId, namespaceId: null, userId, sharedIds: [], metadata: null };
      const terms = queryTerms('climbing routes grades entry');
      const p = { k1: 0.9, b: 0.4 };
      const postings = await bm25(t.db, scope, terms, 50, p); // the user's postings and statistics (0016)
      const planner = await bm25(t.db, scope, terms, 50, p, { postings: false, scopeFirstMax: 0 }); // 30 > 0
      const scopeFirst = await bm25(t.db, scope, terms, 50, p, { postings: false }); // 30 ≤ 20,000
      assert.equal(planner.size, 30);
      // Same memories, same scores (up to the order a sum was added in).
      for (const other of [scopeFirst, postings]) {
        assert.deepEqual([...other.keys()].sort(), [...planner.keys()].sort());
        for (const [id, score] of planner) assert.ok(Math.abs(other.get(id)! - score) < 1e-9, id);
      }
      const none = await bm25(t.db, scope, queryTerms('peanuts'), 50, p);
      assert.equal(none.size, 0, 'no hit, no scores');
    });

    it('answers search_id, logs the query, returns scores', async () => {
      const res = await post(t, '/v1/memory/search', { query: 'climbing', external_user_id: 'priya' });
      const body = res.json();
      assert.equal(body.code, 200);
      assert.equal(typeof body.search_id, 'string');
      assert.deepEqual(body.data.nodes, []);
      assert.ok(body.data.memories[0].relevance_score > 0);
      // The log row is written beside the reply: it lands within moments.
      let rows: unknown[] = [];
      for (let i = 0; i < 100 && !rows.length; i++) {
        rows = await t.db.query('SELECT query, result_count FROM query_log WHERE id = $1', [body.search_id]);
        if (!rows.length) await new Promise((r) => setTimeout(r, 10));
      }
      assert.deepEqual(rows, [{ query: 'climbing', result_count: body.data.memories.length }]);
    });

    it('filters by metadata: role, category (fact = facts), any custom key, customMetadata', async () => {
      const q = (metadata: object) =>
        searchContents(t, { query: 'Priya climbing peanuts gym report', external_user_id: 'priya', metadata });
      assert.deepEqual(await q({ role: 'assistant' }), ['I suggested a climbing gym near her office.']);
      assert.deepEqual(await q({ category: 'fact' }), ['Priya is allergic to peanuts.']);
      assert.deepEqual(await q({ category: 'facts' }), ['Priya is allergic to peanuts.']);
      assert.deepEqual(await q({ team: 'red' }), ['Priya is allergic to peanuts.']);
      assert.deepEqual(await q({ customMetadata: { source: 'email' } }), ['Quarterly report is due on Friday.']);
    });

    it('limits: max_memories (default 20), limit up to 200, and 422 beyond', async () => {
      const many = (q: string, body: object = {}) =>
        post(t, `/v1/memory/search${q}`, { query: 'climbing log routes', external_user_id: 'many', ...body });
      assert.equal((await many('')).json().data.memories.length, 20);
      assert.equal((await many('?max_memories=5')).json().data.memories.length, 5);
      assert.equal((await many('', { limit: 25 })).json().data.memories.length, 25);
      assertEnvelope(await many('', { limit: 201 }), 422);
      assertEnvelope(await many('?max_memories=500'), 422);
      assert.equal((await many('?max_memories=')).json().data.memories.length, 20);
    });

    it('namespace_id limits the search; a namespace key is confined to its namespace', async () => {
      assert.deepEqual(await searchContents(t, { query: 'climbing', external_user_id: 'priya', namespace_id: ns }), [
        'Namespaced climbing memory.',
      ]);
      const { key } = await makeKey(t.db, t.orgId, { namespaceId: ns, permissions: ['read'] });
      assert.deepEqual(await searchContents(t, { query: 'climbing', external_user_id: 'priya' }, '', key), [
        'Namespaced climbing memory.',
      ]);
      assertEnvelope(
        await post(
          t,
          '/v1/memory/search',
          { query: 'climbing', external_user_id: 'priya', namespace_id: 'other' },
          key,
        ),
        403,
      );
    });

    it('organization_id naming another organization is a 422 naming the field, as on add and batch', async () => {
      const other = 'another-organization';
      const search = await post(t, '/v1/memory/search', {
        query: 'climbing',
        external_user_id: 'priya',
        organization_id: other,
      });
      const add = await post(t, '/v1/memory', { content: 'x', external_user_id: 'priya', organization_id: other });
      const s = assertEnvelope(search, 422);
      const a = assertEnvelope(add, 422);
      assert.deepEqual(s.details, { fields: ['organization_id'] });
      assert.deepEqual([s.error, s.details], [a.error, a.details], 'the same answer as add');
      assert.ok(!search.body.includes('Priya'));
      // The credential's own organization is accepted (the field is deprecated, not refused).
      assert.ok(
        (await searchContents(t, { query: 'peanut allergy', external_user_id: 'priya', organization_id: t.orgId }))
          .length,
      );
    });

    it('no match is 200 with empty lists; empty query and unknown users behave', async () => {
      const none = await post(t, '/v1/memory/search', {
        query: 'xylophone quantum',
        external_user_id: 'priya',
        metadata: { category: 'goal' },
      });
      assert.equal(none.statusCode, 200);
      assert.deepEqual(none.json().data, { memories: [], nodes: [] });
      assertEnvelope(await post(t, '/v1/memory/search', { query: '   ', external_user_id: 'priya' }), 422);
      assertEnvelope(await post(t, '/v1/memory/search', { external_user_id: 'priya' }), 422);
      assert.deepEqual(await searchContents(t, { query: 'climbing', external_user_id: 'nobody-yet' }), []);
    });

    it('reranking: provider none works, others are a clear 422; rank_results conflicts are 422', async () => {
      assert.ok(
        (
          await searchContents(t, {
            query: 'climbing',
            external_user_id: 'priya',
            reranking_config: { reranking_enabled: true, reranking_provider: 'none' },
          })
        ).length > 0,
      );
      const e = assertEnvelope(
        await post(t, '/v1/memory/search', {
          query: 'climbing',
          external_user_id: 'priya',
          reranking_config: { reranking_enabled: true, reranking_provider: 'cohere' },
        }),
        422,
      );
      assert.match(e.error, /cohere/);
      assertEnvelope(
        await post(t, '/v1/memory/search', {
          query: 'c',
          rank_results: false,
          reranking_config: { reranking_provider: 'none' },
        }),
        422,
      );
    });

    it('response_format=toon answers text/plain TOON with X-Content-Format', async () => {
      const res = await post(t, '/v1/memory/search?response_format=toon', {
        query: 'peanut allergy',
        external_user_id: 'priya',
      });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.equal(res.headers['x-content-format'], 'toon');
      const parsed = decode(res.body) as any;
      assert.equal(parsed.data.memories[0].content, 'Priya is allergic to peanuts.');
      assert.equal(typeof parsed.search_id, 'string');
    });

    it('a turn next to the matching one in the same session comes along (conversation context)', async () => {
      const turns = [
        'Did you ever get a pet?',
        'Yes! We adopted a rescue greyhound named Biscuit last spring.',
        'Unrelated chat about the weather today.',
      ];
      for (const [i, content] of turns.entries()) {
        await addMemory(t, {
          content,
          external_user_id: 'ctx',
          metadata: { sessionId: 's1', createdAt: `2024-03-01T10:0${i}:00Z` },
        });
      }
      for (let i = 0; i < 5; i++)
        await addMemory(t, {
          content: `Filler memory ${i} about gardening.`,
          external_user_id: 'ctx',
          metadata: { sessionId: 's2', createdAt: `2024-03-02T10:0${i}:00Z` },
        });
      const found = await searchContents(t, { query: 'pet', external_user_id: 'ctx' }, '?max_memories=2');
      // Both, in either order: the question matches, the answer comes along (the question, which
      // only asks, loses SEARCH_WEIGHT_ASKS and may fall behind it).
      assert.deepEqual([...found].sort(), [
        'Did you ever get a pet?',
        'Yes! We adopted a rescue greyhound named Biscuit last spring.',
      ]);
    });

    it('no session id: memories written close together are neighbours (the timeline), far apart not', async () => {
      const turns = ['Did you ever get a pet?', 'Yes! We adopted a rescue greyhound named Biscuit.'];
      const ids: Record<string, string[]> = { tl: [], tl2: [] };
      // tl: added one by one as a chat happens (stored seconds apart), no sessionId.
      for (const content of turns) ids.tl.push(await addMemory(t, { content, external_user_id: 'tl' }));
      // tl2: the same turns an hour apart by their createdAt; then a memory in a session (never a timeline neighbour).
      for (const [i, content] of turns.entries())
        ids.tl2.push(
          await addMemory(t, { content, external_user_id: 'tl2', metadata: { createdAt: `2024-03-01T1${i}:00:00Z` } }),
        );
      await addMemory(t, {
        content: 'In a session.',
        external_user_id: 'tl2',
        metadata: { createdAt: '2024-03-01T10:10:00Z', sessionId: 's' },
      });
      for (const u of ['tl', 'tl2'])
        for (let i = 0; i < 3; i++)
          await addMemory(t, { content: `Filler ${i} about gardening.`, external_user_id: u });
      const answerScore = async (user: string) => {
        const res = await post(t, '/v1/memory/search?max_memories=10', { query: 'pet', external_user_id: user });
        return res.json().data.memories.find((m: { content: string }) => m.content === turns[1]).relevance_score;
      };
      // The question is the best match: its neighbour borrows 0.75 of its (rescaled, 1.0) score.
      assert.ok((await answerScore('tl')) - (await answerScore('tl2')) > 0.5);
      const user = async (external: string) =>
        (await t.db.query<{ id: string }>('SELECT id FROM users WHERE external_id = $1', [external]))[0].id;
      const scope = (userId: string) => ({ organizationId: t.orgId, namespaceId: null, userId, metadata: null });
      const tl = await sessionNeighbours(t.db, scope(await user('tl')), ids.tl);
      assert.deepEqual(tl.find((n) => n.id === ids.tl[0])?.next_id, ids.tl[1]);
      assert.deepEqual(tl.find((n) => n.id === ids.tl[1])?.prev_id, ids.tl[0]);
      // Two turns away: the first filler, written right after the answer.
      const [filler] = await t.db.query<{ id: string }>(
        `SELECT m.id FROM memories m JOIN users u ON u.id = m.user_id WHERE u.external_id = 'tl' AND m.content = $1`,
        ['Filler 0 about gardening.'],
      );
      assert.equal(tl.find((n) => n.id === ids.tl[0])?.next2_id, filler.id);
      assert.equal(tl.find((n) => n.id === ids.tl[0])?.prev2_id, null);
      const tl2 = await sessionNeighbours(t.db, scope(await user('tl2')), ids.tl2);
      assert.equal(tl2.find((n) => n.id === ids.tl2[0])?.next_id, null, 'an hour apart: no thread');
      assert.equal(tl2.find((n) => n.id === ids.tl2[1])?.prev_id, null);
      assert.equal(tl2.find((n) => n.id === ids.tl2[0])?.next2_id, null);
      // Another user's memories are never neighbours.
      assert.deepEqual(await sessionNeighbours(t.db, scope(await user('tl')), ids.tl2), []);
      // A batch of undated items is an import: none is another's neighbour; nor are a document's
      // chunks (a batch whose items carry chunk_index).
      const batch = async (memories: Record<string, unknown>[]) => {
        const res = await post(t, '/v1/memory/batch', { external_user_id: 'tl3', memories });
        assert.ok(res.statusCode < 300, res.body);
        const rows = await t.db.query<{ id: string; content: string }>(
          'SELECT id, content FROM memories WHERE batch_id = $1',
          [res.json().batch_id],
        );
        return (content: string) => rows.find((r) => r.content === content)!.id;
      };
      const imported = await batch([{ content: 'Corpus item A.' }, { content: 'Corpus item B.' }]);
      const chunks = await batch(
        [2, 0, 1].map((i) => ({ content: `Chunk ${i}.`, metadata: { customMetadata: {}, chunk_index: i } })),
      );
      const tl3 = scope(await user('tl3'));
      assert.deepEqual(
        await sessionNeighbours(t.db, tl3, [imported('Corpus item A.'), imported('Corpus item B.')]),
        [],
      );
      // A document's chunks have no thread: a loan would lift a chunk's sibling beside it.
      assert.deepEqual(await sessionNeighbours(t.db, tl3, [chunks('Chunk 1.')]), []);
    });

    it('user_id (deprecated, internal) wins over external_user_id', async () => {
      const zoe = (await post(t, '/v1/memory/search', { query: 'climbs', external_user_id: 'zoe' })).json().data
        .memories[0];
      const found = await searchContents(t, { query: 'climbs', user_id: zoe.user_id, external_user_id: 'priya' });
      assert.deepEqual(found, ['Someone else climbs too.']);
    });
  });
}
