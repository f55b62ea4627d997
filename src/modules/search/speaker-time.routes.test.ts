/**
 * The speaker- and time-aware signals through the search route on both stores: a question naming
 * one speaker of a conversation ranks that speaker's turn above the other speaker's turn that
 * names them (labels from metadata.speaker, customMetadata.speaker or a `Name said`/`Name:`
 * opening: candidates.store.ts), and a question naming a month ranks the memory of that month
 * first. The matching on its own: speaker-signal.test.ts.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { addTurns, post, searchContents } from '../../../test/memory-helpers.ts';
import { candidateFacts } from './candidates.store.ts';

for (const store of testStores) {
  describe(`speaker-aware search [${store.name}]`, () => {
    let t: TestApp;
    let off: TestApp;
    let many: TestApp;
    before(async () => {
      // Questions keep their place (SEARCH_WEIGHT_ASKS 0): these tests weigh the speaker and time alone.
      const env = { SEARCH_WEIGHT_ASKS: '0' };
      t = await startApp(store, { env: { ...env, SEARCH_WEIGHT_SPEAKER: '0.5', SEARCH_WEIGHT_TIME: '0.5' } });
      off = await startApp(store, { env: { ...env, SEARCH_WEIGHT_SPEAKER: '0', SEARCH_WEIGHT_TIME: '0' } });
      // The speaker bonus only for questions asking for many things.
      many = await startApp(store, {
        env: { ...env, SEARCH_WEIGHT_SPEAKER: '0', SEARCH_WEIGHT_SPEAKER_MANY: '1', SEARCH_WEIGHT_TIME: '0' },
      });
    });
    after(async () => {
      await t.close();
      await off.close();
      await many.close();
    });

    it('reads speaker labels from metadata, customMetadata and a `Name said` / `Name:` opening', async () => {
      const add = async (content: string, metadata: Record<string, unknown> = {}) => {
        const res = await post(t, '/v1/memory', { content, external_user_id: 'labels', metadata });
        return JSON.parse(res.body).data[0].memoryId as string;
      };
      const ids = [
        await add('I planted tomatoes.', { speaker: 'Ana Lima' }),
        await add('I planted basil.', { customMetadata: { speaker: 'Bo' } }),
        await add('Caroline said, "I planted mint."'),
        await add('Melanie: I planted thyme.'),
        await add('Nobody in particular planted chives.'),
      ];
      const got = await candidateFacts(t.db, t.orgId, ids, { mentions: true });
      assert.deepEqual(
        ids.map((id) => got.get(id)?.speaker),
        ['ana lima', 'bo', 'caroline', 'melanie', null],
      );
      assert.ok([...got.values()].every((f) => f.at instanceof Date && !Number.isNaN(f.at.getTime())));
      // The dates a memory mentions are its graph's Date nodes (written here as the builder would).
      await t.db.query(
        `INSERT INTO graph_nodes (id, organization_id, type, name, canonical_key) VALUES
           ('node_june', $1, 'Date', '2023-06', '2023-06'), ('node_lisbon', $1, 'Place', 'Lisbon', 'lisbon')`,
        [t.orgId],
      );
      await t.db.query(
        `INSERT INTO memory_nodes (memory_id, node_id, organization_id, user_id)
         SELECT $1, n, $2, user_id FROM memories, unnest(ARRAY['node_june', 'node_lisbon']) n WHERE id = $1`,
        [ids[0], t.orgId],
      );
      const again = await candidateFacts(t.db, t.orgId, ids, { mentions: true });
      assert.deepEqual(again.get(ids[0])?.mentions, ['2023-06']);
      assert.deepEqual(again.get(ids[1])?.mentions, []);
      assert.equal(
        (await candidateFacts(t.db, 'org_of_someone_else', ids, { mentions: true })).size,
        0,
        'scoped to the organization',
      );
    });

    it("ranks the named speaker's turn above the other speaker's turn that names them", async () => {
      const turns: [string, string][] = [
        ['Melanie', 'Caroline, how is your research going, Caroline?'],
        ['Caroline', 'My research on adoption agencies is going well.'],
        ['Melanie', 'I went swimming with the kids today.'],
        ['Caroline', 'I love painting sunsets.'],
      ];
      const question = { query: 'What did Caroline research?', external_user_id: 'chat' };
      await addTurns([t, off], 'chat', turns, { labelled: true });
      // Without the signal the question's words favour Melanie's turn (it names Caroline twice).
      assert.match((await searchContents(off, question))[0], /^Melanie said, "Caroline, how is/);
      assert.match((await searchContents(t, question))[0], /^Caroline said, "My research/);
    });

    it("a question for a person's many things weighs their speaker by SEARCH_WEIGHT_SPEAKER_MANY", async () => {
      const turns: [string, string][] = [
        ['Melanie', 'Caroline, which books have you read, Caroline? Books are the best.'],
        ['Caroline', 'I read a novel about sailing last month.'],
        ['Melanie', 'I went swimming with the kids today.'],
        ['Caroline', 'I love painting sunsets.'],
        ['Melanie', 'Pottery class was fun.'],
      ];
      await addTurns([many], 'reader', turns, { labelled: true });
      const ask = (query: string) => searchContents(many, { query, external_user_id: 'reader' });
      assert.match((await ask('What books has Caroline read?'))[0], /^Caroline said, "I read a novel/);
      // One thing asked for: the plain speaker bonus (0 here) leaves the words' order.
      assert.match((await ask('Which book did Caroline read?'))[0], /^Melanie said, "Caroline, which books/);
    });

    it('ranks the memory of the month a question names first', async () => {
      const days = [
        ['2023-05-20', 'We went camping by the lake with the kids, camping is our favourite.'],
        ['2023-06-17', 'Camping trip in the mountains this weekend.'],
        ['2023-07-02', 'Back from camping at the beach with the whole family, great camping spot.'],
        // The rest of the diary: what the candidates' scores are rescaled against.
        ['2023-06-03', 'Bought new running shoes.'],
        ['2023-06-25', 'Dinner at the Thai place downtown.'],
        ['2023-08-11', 'Started reading a novel about sailing.'],
        ['2023-09-01', 'The kids went back to school.'],
      ];
      const question = { query: 'When did we go camping in June?', external_user_id: 'diary' };
      for (const app of [t, off])
        await post(app, '/v1/memory/batch', {
          memories: days.map(([date, content]) => ({
            content,
            external_user_id: 'diary',
            metadata: { createdAt: `${date}T10:00:00Z` },
          })),
        });
      assert.doesNotMatch((await searchContents(off, question))[0], /mountains/);
      assert.match((await searchContents(t, question))[0], /mountains/);
    });

    it('ranks a memory that states a time first when the question asks when', async () => {
      const contents = [
        'Camping is our favourite thing, we love camping and camping gear.',
        'We went camping by the river last weekend.',
        'Bought new running shoes.',
        'Dinner at the Thai place downtown.',
        'Started reading a novel about sailing.',
      ];
      const question = { query: 'When did we go camping?', external_user_id: 'when' };
      for (const app of [t, off]) {
        const res = await post(app, '/v1/memory/batch', {
          memories: contents.map((content) => ({ content, external_user_id: 'when' })),
        });
        assert.equal(res.statusCode, 200, res.body);
        // "last weekend" as the graph builder records it: a Date node of the memory.
        const [row] = await app.db.query<{ id: string }>(
          `SELECT id FROM memories WHERE organization_id = $1 AND content = $2`,
          [app.orgId, contents[1]],
        );
        await app.db.query(
          `INSERT INTO graph_nodes (id, organization_id, type, name, canonical_key)
           VALUES ('node_w23', $1, 'Date', '2023-W23', '2023-W23') ON CONFLICT DO NOTHING`,
          [app.orgId],
        );
        await app.db.query(
          `INSERT INTO memory_nodes (memory_id, node_id, organization_id, user_id)
           SELECT $1, 'node_w23', $2, user_id FROM memories WHERE id = $1`,
          [row.id, app.orgId],
        );
      }
      assert.match((await searchContents(off, question))[0], /our favourite thing/);
      assert.match((await searchContents(t, question))[0], /by the river/);
      // Not asked when: the words decide.
      const what = { query: 'What do we love about camping?', external_user_id: 'when' };
      assert.match((await searchContents(t, what))[0], /our favourite thing/);
    });
  });
}
