/**
 * Memories that only ask (asks-signal.ts): which contents only ask, which queries are about asking,
 * the lowered scores, and through the search route on both stores a statement ranked above the
 * question that shares more of the query's words — unless the query is about what was asked.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testStores } from '../../../test/harness.ts';
import { addTurns, post, searchContents, signalOnAndOff } from '../../../test/memory-helpers.ts';
import { askingWith, asksAboutAsking, onlyAsks } from './asks-signal.ts';
import { withBonus } from './signal-tools.ts';
import { askingMemories, askingOf, candidateFacts } from './candidates.store.ts';
import { sessionNeighbours } from './neighbours.store.ts';

describe('onlyAsks', () => {
  it('is true when every sentence is a question or an interjection', () => {
    assert.ok(onlyAsks('Caroline said, "Wow! What got you into running?"'));
    assert.ok(onlyAsks('Melanie: How did it go? Did you win?'));
    assert.ok(onlyAsks('What did it look like?'));
    assert.ok(onlyAsks('Hey Mel! What kind of books do you like?  '));
  });
  it('is false when something is stated, or a photo shared', () => {
    assert.ok(!onlyAsks('Caroline said, "I ran a charity race last week. Have you ever run one?"'));
    assert.ok(!onlyAsks('I went to a support group yesterday.'));
    assert.ok(!onlyAsks('Melanie said, "Look at this?" and shared a photo of a sunset.'));
    assert.ok(!onlyAsks(''));
  });
  it('with a budget of stated words, counts a turn that states a little before it asks', () => {
    const praise = 'Caroline said, "Wow, Mel, that\'s awesome! What\'s your best camping memory?"';
    assert.ok(!onlyAsks(praise), 'four words stated: not with no budget');
    assert.ok(onlyAsks(praise, 4));
    assert.ok(onlyAsks(praise, 15));
    const news =
      'Melanie said, "I just signed up for a pottery class yesterday and it is like therapy for me. ' +
      'Have you tried it?"';
    assert.ok(!onlyAsks(news, 15), 'seventeen words stated');
    assert.ok(!onlyAsks('Melanie said, "That was a great weekend at the lake with the kids."', 15), 'no question');
  });
  it('knows a query about asking', () => {
    assert.ok(asksAboutAsking('What did Caroline ask Melanie about running?'));
    assert.ok(asksAboutAsking('Which questions did Jon have about the studio?'));
    assert.ok(!asksAboutAsking('What does Melanie do to destress?'));
    assert.ok(!asksAboutAsking('Who is Jon Basket?'), 'a word containing "ask" is not asking');
  });
  it('lowers the scores of the memories that only ask, and only theirs', () => {
    const scores = new Map([
      ['q', 0.9],
      ['s', 0.8],
    ]);
    const out = withBonus(scores, new Set(['q', 'elsewhere']), -0.2);
    assert.deepEqual([...out.keys()], ['q', 's'], 'no id added');
    assert.ok(Math.abs(out.get('q')! - 0.7) < 1e-12);
    assert.equal(out.get('s'), 0.8);
    assert.equal(withBonus(scores, new Set(['q']), -0), scores, 'weight 0: unchanged');
  });
  it("adds the thread neighbours whose content only asks to the top's", () => {
    const got = askingWith(new Set(['a']), [
      { prev_id: 'p', next_id: 'n', prev_asks: 'Jon: Where to?', next_asks: null },
      { prev_id: 'x', next_id: null, prev_asks: 'Jon: Where to? We could drive.' },
      { prev_id: null, next_id: 'y', next2_id: 'z', next2_asks: 'Ana said, "Really? When?"' },
    ]);
    assert.deepEqual([...got].sort(), ['a', 'p', 'z']);
    const remark = [{ prev_id: 'r', prev_asks: 'Jon: That sounds great, mate. Where to?' }];
    assert.deepEqual([...askingWith(new Set(), remark)], [], 'four words stated');
    assert.deepEqual([...askingWith(new Set(), remark, 15)], ['r'], 'within a budget of fifteen');
  });
});

for (const store of testStores) {
  describe(`memories that only ask [${store.name}]`, () => {
    const apps = signalOnAndOff(store, 'SEARCH_WEIGHT_ASKS', '0.5');

    it('ranks the turn that answers above the question that shares the query words', async () => {
      const turns: [string, string][] = [
        ['Caroline', 'What do you do to destress after a long week? What helps you destress?'],
        ['Melanie', 'Running farther has been great for my headspace lately, I destress that way.'],
        ['Caroline', 'I started learning the piano this month.'],
        ['Melanie', 'The kids loved the dinosaur exhibit at the museum.'],
        ['Caroline', 'My support group meets on Tuesdays.'],
      ];
      await addTurns([apps.on, apps.off], 'asks', turns);
      const question = { query: 'What do you do to destress?', external_user_id: 'asks' };
      assert.match((await searchContents(apps.off, question))[0], /^Caroline said, "What do you do/);
      assert.match((await searchContents(apps.on, question))[0], /^Melanie said, "Running farther/);
      // A query about what was asked keeps the question where its words put it.
      const asked = { query: 'What did Caroline ask about how to destress?', external_user_id: 'asks' };
      assert.match((await searchContents(apps.on, asked))[0], /^Caroline said, "What do you do/);
    });

    it('reads which memories only ask within the organization', async () => {
      const t = apps.on;
      const add = async (content: string) => {
        const res = await post(t, '/v1/memory', { content, external_user_id: 'asks-store' });
        return JSON.parse(res.body).data[0].memoryId as string;
      };
      const ids = [await add('Jon: How was the trip? Did you see the falls?'), await add('Jon: The trip was great.')];
      // The facts statement reads the content of those that may only ask, and only when asked to.
      const asking = async (org: string, of: string[]) =>
        askingOf(await candidateFacts(t.db, org, of, { mentions: false, asks: true }));
      assert.deepEqual(await asking(t.orgId, ids), { asking: new Set([ids[0]]), seen: true });
      assert.deepEqual(await asking('org_of_someone_else', ids), { asking: new Set(), seen: false });
      assert.deepEqual(await asking(t.orgId, [ids[1]]), { asking: new Set(), seen: false });
      assert.deepEqual(await asking(t.orgId, []), { asking: new Set(), seen: false });
      // Alone, when nothing else of the candidates is read: the same answers.
      assert.deepEqual(await askingMemories(t.db, t.orgId, ids), { asking: new Set([ids[0]]), seen: true });
      assert.deepEqual(await askingMemories(t.db, 'org_of_someone_else', ids), {
        asking: new Set(),
        seen: false,
      });
      assert.deepEqual(await askingMemories(t.db, t.orgId, [ids[1]]), { asking: new Set(), seen: false });
      const facts = await candidateFacts(t.db, t.orgId, ids, { mentions: false });
      assert.equal(facts.get(ids[0])?.asks, null);
      assert.match(
        (await candidateFacts(t.db, t.orgId, ids, { mentions: false, asks: true })).get(ids[0])?.asks ?? '',
        /Did you see the falls\?$/,
      );
      // Written one after the other, they are a thread: the question comes with its neighbour's row.
      const [{ user_id: userId }] = await t.db.query<{ user_id: string }>(
        'SELECT user_id FROM memories WHERE id = $1',
        [ids[1]],
      );
      const [thread] = await sessionNeighbours(
        t.db,
        { organizationId: t.orgId, namespaceId: null, userId, metadata: null },
        [ids[1]],
      );
      assert.equal(thread.prev_id, ids[0]);
      assert.equal(thread.prev_asks, 'Jon: How was the trip? Did you see the falls?');
      assert.equal(thread.next_asks ?? null, null);
    });
  });
}
