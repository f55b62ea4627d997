import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { useFakeJsonServer, type Reply } from '../../../test/fake-json-server.ts';
import { post } from '../../../test/memory-helpers.ts';
import { ConfigError, loadConfig } from '../../config.ts';

interface ChatBody {
  messages: { role: string; content: string }[];
}
interface Question {
  new_memory: { content: string; time: string };
  older_memories: { id: string; content: string; time: string }[];
}

/** A chat-completions answer whose assistant message is `content`. */
const chat = (content: string) => ({ status: 200, body: { choices: [{ message: { role: 'assistant', content } }] } });

/**
 * The fake LLM: a new memory about the gym updates an older one about the gym; one about the
 * wifi password repeats an older one about it; everything else is `none`.
 */
const decide = (q: Question) => {
  const both = (re: RegExp, m: { content: string }) => re.test(q.new_memory.content) && re.test(m.content);
  return {
    decisions: q.older_memories.map((m) => ({ id: m.id, action: both(/gym/i, m) ? 'update' : 'none' })),
    duplicate_of: q.older_memories.find((m) => both(/wifi/i, m))?.id ?? null,
  };
};

describe('MEMORY_UPDATE_DECIDER config', () => {
  it('llm needs LLM_BASE_URL and LLM_MODEL; offline is the default', () => {
    assert.throws(
      () => loadConfig({ MEMORY_UPDATE_DECIDER: 'llm', LLM_MODEL: 'm' }),
      (err: unknown) => err instanceof ConfigError && /MEMORY_UPDATE_DECIDER=llm needs LLM_BASE_URL/.test(err.message),
    );
    assert.equal(loadConfig({}).MEMORY_UPDATE_DECIDER, 'offline');
    assert.throws(() => loadConfig({ MEMORY_UPDATE_DECIDER: 'always' }), ConfigError);
  });
});

/** The LLM's supersession decisions join the offline ones; a failing LLM never fails a write (docs/truth.md). */
for (const store of testStores) {
  describe(`memories that stay true: the LLM update decider [${store.name}]`, () => {
    let mode: 'ok' | '500' | 'garbage' = 'ok';
    const reply: Reply<ChatBody> = (s) => {
      if (mode === '500') return { status: 500, body: { error: { message: 'model crashed' } } };
      if (mode === 'garbage') return chat('The older one looks outdated to me.');
      return chat(JSON.stringify(decide(JSON.parse(s.body.messages[1].content) as Question)));
    };
    const fake = useFakeJsonServer<ChatBody>(() => reply);
    let t: TestApp;
    before(async () => {
      t = await startApp(store, {
        env: { MEMORY_UPDATE_DECIDER: 'llm', LLM_BASE_URL: fake.url(), LLM_MODEL: 'fake-llm' },
      });
    });
    after(() => t.close());
    beforeEach(() => {
      mode = 'ok';
      fake.seen.length = 0;
    });

    const add = async (body: Record<string, unknown>) => {
      const res = await post(t, '/v1/memory?skip_background_processing=true', body);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data[0] as { memoryId: string; duplicate_of?: string; supersedes?: string[] };
    };
    const get = async (path: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/memory/${path}`, headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data;
    };
    const reasons = async (id: string) =>
      ((await get(`${id}/history`)).links as { relation: string; memory_id: string; reason: string }[]).map(
        (l) => `${l.relation} ${l.memory_id} ${l.reason}`,
      );
    const asked = () => fake.seen.map((s) => JSON.parse(s.body.messages[1].content) as Question);

    it('a memory the LLM says updates an older one supersedes it (reason llm); single and batch writes', async () => {
      const user = 'llm-gym';
      const old = await add({
        content: 'I train at the Fitness First gym on Main Street.',
        external_user_id: user,
        metadata: { createdAt: '2023-01-10T00:00:00Z' },
      });
      assert.equal(fake.seen.length, 0, 'a new user has no older memories: no call');
      const other = await add({ content: 'My favourite board game is Carcassonne.', external_user_id: user });
      const now = await add({
        content: 'I cancelled Fitness First and joined the climbing gym downtown.',
        external_user_id: user,
        metadata: { createdAt: '2024-03-01T00:00:00Z' },
      });
      const q = asked().at(-1)!;
      assert.equal(q.new_memory.time, '2024-03-01T00:00:00.000Z');
      assert.ok(q.older_memories.some((m) => m.id === old.memoryId && m.time === '2023-01-10T00:00:00.000Z'));
      assert.deepEqual(now.supersedes, [old.memoryId]);
      const stale = (await get(old.memoryId)).memories[0];
      assert.equal(stale.superseded_by, now.memoryId);
      assert.equal(stale.valid_to, '2024-03-01T00:00:00.000Z');
      assert.equal((await get(other.memoryId)).memories[0].superseded_by, null);
      assert.deepEqual(await reasons(old.memoryId), [`superseded_by ${now.memoryId} llm`]);

      const res = await post(t, '/v1/memory/batch?skip_background_processing=true', {
        external_user_id: user,
        memories: [{ content: 'I left the climbing gym; I work out at home now.' }],
      });
      assert.equal(res.statusCode, 200, res.body);
      const item = res.json().successful[0].data[0];
      assert.deepEqual(item.supersedes, [now.memoryId]);
      assert.ok(
        !asked()
          .at(-1)!
          .older_memories.some((m) => m.id === old.memoryId),
        'a superseded memory is not shown again',
      );
      assert.deepEqual(await reasons(now.memoryId), [
        `superseded_by ${item.memoryId} llm`,
        `supersedes ${old.memoryId} llm`,
      ]);
    });

    it("the LLM's duplicate_of is a duplicate link (not with dedupe: off); supersede: off asks nothing", async () => {
      const user = 'llm-wifi';
      const first = await add({ content: 'The wifi password at home is on the fridge.', external_user_id: user });
      const again = await add({
        content: 'Our home wifi password is written on the fridge door.',
        external_user_id: user,
      });
      assert.equal(again.duplicate_of, first.memoryId);
      assert.deepEqual(await reasons(again.memoryId), [`duplicate_of ${first.memoryId} llm`]);
      const asSent = await add({
        content: 'The wifi password is taped to the fridge.',
        external_user_id: user,
        dedupe: 'off',
      });
      assert.equal(asSent.duplicate_of, undefined, 'dedupe: off links no duplicate, whoever found it');
      fake.seen.length = 0;
      const off = await add({ content: 'The gym wifi is slow.', external_user_id: user, supersede: 'off' });
      assert.equal(off.supersedes, undefined);
      assert.equal(fake.seen.length, 0);
      // Nor does a write of an organization whose own default is supersede off (write-modes.ts).
      await t.db.query(`UPDATE organizations SET memory_supersede = 'off' WHERE id = $1`, [t.orgId]);
      try {
        await add({ content: 'The office wifi is slow.', external_user_id: user });
        assert.equal(fake.seen.length, 0);
      } finally {
        await t.db.query('UPDATE organizations SET memory_supersede = NULL WHERE id = $1', [t.orgId]);
      }
    });

    for (const failure of ['500', 'garbage'] as const) {
      it(`with the LLM failing (${failure}) the write succeeds and offline detection still applies`, async () => {
        const user = `llm-down-${failure}`;
        const old = await add({
          content: 'I am a vegetarian.',
          external_user_id: user,
          metadata: { createdAt: '2023-01-10T00:00:00Z' },
        });
        mode = failure;
        const now = await add({
          content: 'I stopped being vegetarian last month.',
          external_user_id: user,
          metadata: { createdAt: '2024-05-01T00:00:00Z' },
        });
        assert.equal(fake.seen.length, failure === 'garbage' ? 2 : 1, 'the decider was asked (and repaired)');
        assert.deepEqual(now.supersedes, [old.memoryId]);
        assert.deepEqual(await reasons(old.memoryId), [`superseded_by ${now.memoryId} fact:diet`]);
      });
    }

    it('the offline detection runs beside a working LLM that says none', async () => {
      const user = 'llm-offline';
      const old = await add({
        content: 'I live in Porto.',
        external_user_id: user,
        metadata: { createdAt: '2022-01-10T00:00:00Z' },
      });
      const now = await add({
        content: 'I live in Braga.',
        external_user_id: user,
        metadata: { createdAt: '2024-01-10T00:00:00Z' },
      });
      assert.equal(fake.seen.length, 1);
      assert.deepEqual(now.supersedes, [old.memoryId]);
      assert.match((await reasons(old.memoryId))[0], /^superseded_by \S+ fact:residence$/);
    });
  });
}
