import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { post } from '../../../test/memory-helpers.ts';

/** The name the owner's memories call them by is the owner (facts.owner.ts, docs/truth.md). */
for (const store of testStores) {
  describe(`memories that stay true: the owner's own name [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());

    const add = async (user: string, content: string, day: string) => {
      const res = await post(t, '/v1/memory?skip_background_processing=true', {
        content,
        external_user_id: user,
        metadata: { createdAt: `${day}T09:00:00Z` },
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data[0] as { memoryId: string; supersedes?: string[] };
    };
    const supersededBy = async (id: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/memory/${id}`, headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.memories[0].superseded_by as string | null;
    };
    const top = async (user: string, query: string) => {
      const res = await post(t, '/v1/memory/search?max_memories=10', { query, external_user_id: user });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().data.memories as { id: string }[]).map((m) => m.id);
    };

    it('a first-person update retires what the memories said of the owner by name; a friend keeps theirs', async () => {
      const user = 'u-4411'; // an external id that says nothing of the name
      await add(user, 'Nadia works at Stripe.', '2022-01-05');
      const porto = await add(user, 'Nadia lives in Porto.', '2022-02-01');
      const friend = await add(user, 'My colleague Tom lives in Rome.', '2022-03-01');
      // Spoken of as often as the owner, but introduced as someone else: not a rival name.
      await add(user, 'My colleague Tom works at Ferrari.', '2022-03-02');
      const lyon = await add(user, 'I moved to Lyon last week.', '2023-06-01');
      assert.deepEqual(lyon.supersedes, [porto.memoryId]);
      assert.equal(await supersededBy(porto.memoryId), lyon.memoryId);
      assert.equal(await supersededBy(friend.memoryId), null);
      // Asked by name or in the first person, the current statement comes first.
      assert.equal((await top(user, 'Where does Nadia live?'))[0], lyon.memoryId);
      assert.equal((await top(user, 'Where do I live?'))[0], lyon.memoryId);
    });

    it('two names spoken of alike: neither is taken for the owner', async () => {
      const user = 'u-5522';
      const ana = await add(user, 'Ana lives in Madrid.', '2022-01-01');
      await add(user, 'Ana works at Shopify.', '2022-01-02');
      const ben = await add(user, 'Ben lives in Paris.', '2022-01-03');
      await add(user, 'Ben works at Spotify.', '2022-01-04');
      const mine = await add(user, 'I moved to Vienna.', '2023-01-01');
      assert.equal(mine.supersedes, undefined);
      assert.equal(await supersededBy(ana.memoryId), null);
      assert.equal(await supersededBy(ben.memoryId), null);
      // A question naming one of them is about that one.
      assert.equal((await top(user, 'Where does Ben live?'))[0], ben.memoryId);
    });

    it('a name the memories speak of most but of nothing asked: the owner answers, not a stranger', async () => {
      const user = 'u-7744';
      await add(user, 'Lina works at Zalando.', '2022-01-01');
      const mine = await add(user, 'I live in Hamburg.', '2022-02-01');
      assert.equal((await top(user, 'Where does Lina live?'))[0], mine.memoryId);
    });

    it('a question naming someone never mentioned asks about the owner; someone mentioned is that one', async () => {
      const user = 'u-6633';
      await add(user, 'I live in Oslo.', '2021-05-01');
      const bergen = await add(user, 'These days I am based in Bergen.', '2023-05-01');
      const kim = await add(user, 'Kim lives in Tromsø.', '2023-06-01');
      assert.equal((await top(user, 'Where does Priya live?'))[0], bergen.memoryId);
      assert.equal((await top(user, 'Where does Kim live?'))[0], kim.memoryId);
    });
  });
}
