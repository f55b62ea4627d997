import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { post } from '../../../test/memory-helpers.ts';

/**
 * Lisbon, said three times in 2021, then "Bought new socks today." in 2024 with a statement of
 * where the writer lives, no value named, as if the classifier had read it so (`loose`: as a
 * loose statement, facts.claims.ts). The Lisbon memories' ids, oldest first, and the socks'.
 */
async function lisbonThenSocks(t: TestApp, user: string, loose: boolean) {
  const add = async (content: string, createdAt: string) => {
    const res = await post(t, '/v1/memory?skip_background_processing=true', {
      content,
      external_user_id: user,
      metadata: { createdAt },
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data[0].memoryId as string;
  };
  const lisbon = [await add('I live in Lisbon, and I love living here.', '2021-01-01T00:00:00Z')];
  for (const [i, s] of ['Living in Lisbon is sunny.', 'Lisbon life: trams and tiles.'].entries())
    lisbon.push(await add(s, `2021-0${i + 2}-01T00:00:00Z`));
  const socks = await add('Bought new socks today.', '2024-01-01T00:00:00Z');
  await t.db.query(
    `INSERT INTO memory_facts
       (memory_id, organization_id, user_id, namespace_id, subject, slot, value, negated, at, loose)
     SELECT id, organization_id, user_id, namespace_id, 'self', 'residence', '', false, created_at, $2
     FROM memories WHERE id = $1`,
    [socks, loose],
  );
  return { lisbon, socks };
}

/** A statement read by its meaning alone answers a question only where the search found it too. */
for (const store of testStores) {
  describe(`fact answers need a value or the search's own finding [${store.name}]`, () => {
    const cases: { name: string; env: Record<string, string> }[] = [
      { name: 'a candidate', env: {} },
      { name: 'not a candidate', env: { SEARCH_CANDIDATES: '2' } },
    ];
    for (const c of cases) {
      it(`a value-less statement that is ${c.name}`, async () => {
        const t = await startApp(store, { env: c.env });
        try {
          const { lisbon: said, socks } = await lisbonThenSocks(t, 'fa-guard', false);
          const lisbon = said[0];
          const res = await post(t, '/v1/memory/search?max_memories=2', {
            query: 'Where do I live?',
            external_user_id: 'fa-guard',
          });
          assert.equal(res.statusCode, 200, res.body);
          const ids = (res.json().data.memories as { id: string }[]).map((m) => m.id);
          if (c.name === 'a candidate') assert.equal(ids[0], socks, 'among the candidates it goes first');
          else {
            assert.ok(!ids.includes(socks), 'outside the candidates it is no answer');
            assert.equal(ids[0], lisbon);
          }
        } finally {
          await t.close();
        }
      });
    }
  });
}

/** A question for several things asks about no single-valued attribute: no fact answer goes first. */
for (const store of testStores) {
  describe(`no fact answer for a question asking for many things [${store.name}]`, () => {
    it('leaves such a question to the ranking', async () => {
      const t = await startApp(store);
      try {
        const user = 'fa-many';
        for (const [content, createdAt] of [
          ['I live in Lisbon: of all the cities I have lived in, Lisbon is the city I love.', '2021-01-01T00:00:00Z'],
          ['I moved to Berlin.', '2024-01-01T00:00:00Z'],
        ]) {
          const res = await post(t, '/v1/memory', { content, external_user_id: user, metadata: { createdAt } });
          assert.equal(res.statusCode, 200, res.body);
        }
        const top = async (query: string) => {
          const res = await post(t, '/v1/memory/search', { query, external_user_id: user });
          assert.equal(res.statusCode, 200, res.body);
          return (res.json().data.memories as { content: string }[])[0].content;
        };
        // The current answer goes first for the single value …
        assert.match(await top('Where do I live?'), /Berlin/);
        // … and not for the many: the words' best match stays first.
        assert.match(await top('Which cities have I lived in?'), /Lisbon/);
      } finally {
        await t.close();
      }
    });
  });
}

/**
 * A loose statement newer than the answer goes first when the search put it on its page, and the
 * answer right after it; off the page it is no answer (truth-stage.ts).
 */
for (const store of testStores) {
  describe(`a loose statement answers from the page only [${store.name}]`, () => {
    for (const page of [10, 2]) {
      it(`with ${page} results asked for`, async () => {
        const t = await startApp(store);
        try {
          const { lisbon, socks } = await lisbonThenSocks(t, 'fa-loose', true);
          const res = await post(t, `/v1/memory/search?max_memories=${page}`, {
            query: 'Where do I live?',
            external_user_id: 'fa-loose',
          });
          assert.equal(res.statusCode, 200, res.body);
          const ids = (res.json().data.memories as { id: string }[]).map((m) => m.id);
          // The answer itself is the newest Lisbon line that states where the writer lives.
          if (page === 10) {
            assert.equal(ids[0], socks, 'on the page: first');
            assert.ok(lisbon.includes(ids[1]), 'then the answer');
          } else {
            assert.ok(lisbon.includes(ids[0]), 'off the page: the answer first');
            assert.ok(!ids.includes(socks), 'the socks not brought in');
          }
        } finally {
          await t.close();
        }
      });
    }
  });
}
