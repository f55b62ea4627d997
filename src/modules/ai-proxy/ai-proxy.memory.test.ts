/**
 * The proxy's memory: a named user's relevant memories added to the request in each provider's
 * own place (and the `engram` field never forwarded), and the exchange stored as messages of
 * the named session, for whole answers and for streams.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';
import { makeSession } from '../../../test/factories.ts';
import { fakeAiUpstream, REPLY, requests } from '../../../test/fake-ai-upstream.ts';
import { fitBytes, memoryContext, memoryPlan } from './memory.ts';

const QUESTION = 'What snacks should I pack for my hiking trip?';
const ANA = 'Ana is allergic to peanuts and loves hiking in the Dolomites.';
const ANA_SNACKS = 'Ana packs trail mix and dried apricots as hiking snacks.';
const BOB = 'Bob is hiking the Camino and packs peanut butter for every hike.';
const ask = { role: 'user', content: QUESTION };

describe('AI proxy memory: the rules', () => {
  it('the context stays within its character budget; the first memory is cut, later ones only whole', () => {
    const long = { content: 'x'.repeat(5000), createdAt: '2024-05-01T10:00:00Z' };
    const one = memoryContext([long, { content: 'short' }], 1000)!;
    assert.ok(one.text.length <= 1000, String(one.text.length));
    assert.equal(one.count, 1);
    assert.match(one.text, /\n- \(2024-05-01\) x+…$/);
    const two = memoryContext([{ content: ' a\n b ' }, { content: 'c' }, { content: '   ' }], 1000)!;
    assert.equal(two.count, 2);
    assert.match(two.text, /\n- a b\n- c$/);
    assert.equal(memoryContext([], 1000), null);
  });

  it('stored text is cut to the byte limit on a character boundary', () => {
    assert.equal(fitBytes('héllo', 100), 'héllo');
    const cut = fitBytes('é'.repeat(100), 51);
    assert.ok(Buffer.byteLength(cut) <= 51);
    assert.match(cut, /^é+…$/);
  });

  it('what a call asks of memory: nothing named is a plain call; the body wins over headers', () => {
    assert.equal(memoryPlan(undefined, {}, 5), null);
    assert.equal(memoryPlan({ external_user_id: 'a', memory: 'off' }, {}, 5), null);
    assert.deepEqual(memoryPlan({ external_user_id: 'a' }, { 'x-engram-user': 'b', 'x-engram-session': 's' }, 5), {
      search: true,
      store: true,
      externalUserId: 'a',
      namespaceId: undefined,
      sessionId: 's',
      maxMemories: 5,
    });
    assert.equal(memoryPlan(undefined, { 'x-engram-memory': 'search', 'x-engram-session': 's' }, 5)!.store, false);
    assert.throws(() => memoryPlan({ memory: 'both' }, {}, 5), /session/);
    assert.throws(() => memoryPlan({ session_id: 'a', sessionId: 'b' }, {}, 5), /different sessions/);
  });
});

for (const store of testStores) {
  describe(`AI proxy memory [${store.name}]`, () => {
    const fake = fakeAiUpstream();
    let t: TestApp;
    before(async () => {
      await fake.start();
      t = await startApp(store, { env: fake.env() });
      for (const [content, user] of [
        [ANA, 'ana'],
        [ANA_SNACKS, 'ana'],
        [BOB, 'bob'],
      ]) {
        const res = await post('/v1/memory', { content, external_user_id: user });
        assert.equal(res.statusCode, 200, res.body);
      }
    });
    after(async () => {
      await t.close();
      fake.stop();
    });
    function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
      return t.app.inject({
        method: 'POST',
        url,
        headers: { 'x-api-key': t.key, ...headers },
        payload: payload as object,
      });
    }
    const history = async (session: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/messages/sessions/${session}`,
        headers: { 'x-api-key': t.key },
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().messages.map((m: { role: string; content: string }) => [m.role, m.content]);
    };

    it('OpenAI chat: memories become a system message after the caller’s own; engram is not forwarded', async () => {
      const body = { ...requests.chat(), messages: [{ role: 'system', content: 'Be brief.' }, ask] };
      const res = await post('/v1/ai/openai/chat/completions', { ...body, engram: { external_user_id: 'ana' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(Number(res.headers['x-engram-memories']) >= 1);
      const sent = fake.last().body;
      assert.equal(sent.engram, undefined);
      assert.equal(sent.messages.length, 3);
      assert.deepEqual(sent.messages[0], { role: 'system', content: 'Be brief.' });
      assert.equal(sent.messages[1].role, 'system');
      assert.match(sent.messages[1].content, /^Relevant memories about the user/);
      assert.ok(sent.messages[1].content.includes(ANA), sent.messages[1].content);
      assert.ok(!sent.messages[1].content.includes('Camino'), 'another user’s memory is not theirs');
      assert.deepEqual(sent.messages[2], ask);
    });

    it('Responses, Anthropic, Gemini: instructions, system, systemInstruction; named by headers too', async () => {
      const user = { 'x-engram-user': 'ana' };
      await post('/v1/ai/openai/responses', requests.responses({ input: QUESTION, instructions: 'Be kind.' }), user);
      assert.match(fake.last().body.instructions, /^Be kind\.\n\nRelevant memories[\s\S]*peanuts/);

      await post('/v1/ai/anthropic/messages', requests.anthropic({ messages: [ask] }), user);
      assert.match(fake.last().body.system, /^Relevant memories[\s\S]*peanuts/);
      await post(
        '/v1/ai/anthropic/messages',
        requests.anthropic({ messages: [ask], system: [{ type: 'text', text: 'Be brief.' }] }),
        user,
      );
      const blocks = fake.last().body.system;
      assert.deepEqual(blocks[0], { type: 'text', text: 'Be brief.' });
      assert.match(blocks[1].text, /peanuts/);

      const google = requests.google({
        contents: [{ parts: [{ text: QUESTION }] }],
        system_instruction: { parts: [{ text: 'Answer in English.' }] },
      });
      await post('/v1/ai/google/models/gemini-test:generateContent', google, user);
      const sent = fake.last().body;
      assert.equal(sent.systemInstruction, undefined, 'the caller’s spelling is kept');
      assert.equal(sent.system_instruction.parts[0].text, 'Answer in English.');
      assert.match(sent.system_instruction.parts[1].text, /peanuts/);
    });

    it('bounded: max_memories and memory off; nothing is added for a user without memories', async () => {
      await post('/v1/ai/openai/chat/completions', {
        ...requests.chat({ messages: [ask] }),
        engram: { external_user_id: 'ana', max_memories: 1 },
      });
      const context = fake.last().body.messages[0].content as string;
      assert.equal(context.split('\n').filter((l) => l.startsWith('- ')).length, 1);
      const byHeader = await post('/v1/ai/openai/chat/completions', requests.chat({ messages: [ask] }), {
        'x-engram-user': 'ana',
        'x-engram-max-memories': '1',
      });
      assert.equal(byHeader.headers['x-engram-memories'], '1');
      const all = await post('/v1/ai/openai/chat/completions', requests.chat({ messages: [ask] }), {
        'x-engram-user': 'ana',
      });
      assert.equal(all.headers['x-engram-memories'], '2', 'both of Ana’s memories by default');
      const both = fake.last().body.messages[0].content as string;
      assert.ok(both.includes(ANA) && both.includes(ANA_SNACKS), both);

      const off = await post('/v1/ai/openai/chat/completions', {
        ...requests.chat({ messages: [ask] }),
        engram: { external_user_id: 'ana', memory: 'off' },
      });
      assert.equal(off.headers['x-engram-memories'], '0');
      assert.deepEqual(fake.last().body, requests.chat({ messages: [ask] }));

      const nobody = await post('/v1/ai/openai/chat/completions', requests.chat({ messages: [ask] }), {
        'x-engram-user': 'nobody-yet',
      });
      assert.equal(nobody.statusCode, 200);
      assert.deepEqual(fake.last().body.messages, [ask]);
    });

    it('stores the last user message and the reply in the named session', async () => {
      const res = await post('/v1/ai/openai/chat/completions', {
        ...requests.chat({ messages: [ask] }),
        engram: { external_user_id: 'ana', session_id: 'ai-trip-1' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['x-engram-stored'], 'true');
      assert.match(fake.last().body.messages[0].content, /peanuts/, 'search is on by default too');
      assert.deepEqual(await history('ai-trip-1'), [
        ['assistant', REPLY.join('')],
        ['user', QUESTION],
      ]);
    });

    it('a stream’s exchange is stored once it is complete; store alone adds no memories', async () => {
      const res = await post('/v1/ai/anthropic/messages', requests.anthropic({ messages: [ask], stream: true }), {
        'x-engram-user': 'ana',
        'x-engram-session': 'ai-trip-2',
        'x-engram-memory': 'store',
      });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /event: message_stop/);
      assert.equal(fake.last().body.system, undefined);
      assert.deepEqual(await history('ai-trip-2'), [
        ['assistant', REPLY.join('')],
        ['user', QUESTION],
      ]);
      const gemini = await post(
        '/v1/ai/google/models/gemini-test:streamGenerateContent?alt=sse',
        { ...requests.google({ contents: [{ role: 'user', parts: [{ text: QUESTION }] }] }) },
        { 'x-engram-user': 'ana', 'x-engram-session': 'ai-trip-3' },
      );
      assert.equal(gemini.statusCode, 200);
      assert.deepEqual(await history('ai-trip-3'), [
        ['assistant', REPLY.join('')],
        ['user', QUESTION],
      ]);
    });

    it('a session of another user is not written; the answer still comes back, saying so', async () => {
      await post('/v1/messages', { sessionId: 'bobs-chat', role: 'user', content: 'Hi', external_user_id: 'bob' });
      const res = await post('/v1/ai/openai/chat/completions', {
        ...requests.chat({ messages: [ask] }),
        engram: { external_user_id: 'ana', session_id: 'bobs-chat' },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-engram-stored'], 'false');
      assert.deepEqual(await history('bobs-chat'), [['user', 'Hi']]);
    });

    it('an end user’s token recalls their own memories and may not name another user', async () => {
      const ana = await makeSession(t.db, t.orgId, 'ana');
      const asAna = { 'x-api-key': '', 'x-session-token': ana.token };
      const own = await post('/v1/ai/openai/chat/completions', requests.chat({ messages: [ask] }), {
        ...asAna,
        'x-engram-memory': 'search',
      });
      assert.equal(own.statusCode, 200, own.body);
      assert.match(fake.last().body.messages[0].content, /peanuts/);
      const calls = fake.seen.length;
      const bob = await post('/v1/ai/openai/chat/completions', requests.chat({ messages: [ask] }), {
        ...asAna,
        'x-engram-user': 'bob',
      });
      assertEnvelope(bob, 403);
      assert.equal(fake.seen.length, calls, 'refused before the upstream');
    });
  });
}
