import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { chatFailureCases, chatReply as chat } from '../../../test/llm-chat-cases.ts';
import { useFakeJsonServer, type Reply as FakeReply, type Seen as FakeSeen } from '../../../test/fake-json-server.ts';
import { createLlmUpdater } from './updater.llm.ts';
import { UpdaterError, type UpdateQuestion } from './updater.ts';

interface ChatBody {
  model: string;
  temperature: number;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema?: { name: string; strict: boolean; schema: JsonSchema } };
}
interface JsonSchema {
  required: string[];
  properties: {
    decisions: { items: { properties: { id: { enum: string[] }; action: { enum: string[] } } } };
    duplicate_of: { anyOf: { enum?: string[]; type: string }[] };
  };
}
type Seen = FakeSeen<ChatBody>;
type Reply = FakeReply<Seen['body']>;

const QUESTION: UpdateQuestion = {
  content: 'I moved to Berlin last month.',
  at: new Date('2024-05-01T00:00:00Z'),
  candidates: [
    { id: 'mem_a', content: 'I live in Lisbon.', at: new Date('2022-01-01T00:00:00Z') },
    { id: 'mem_b', content: 'My sister lives in Oslo.', at: new Date('2023-01-01T00:00:00Z') },
    { id: 'mem_c', content: 'I moved to Berlin.', at: new Date('2024-04-20T00:00:00Z') },
  ],
};
const GOOD = {
  decisions: [
    { id: 'mem_a', action: 'update' },
    { id: 'mem_b', action: 'none' },
    { id: 'mem_c', action: 'none' },
  ],
  duplicate_of: 'mem_c',
};

describe('LLM update decider (OpenAI-compatible chat completions)', () => {
  let reply: Reply = () => chat(JSON.stringify(GOOD));
  const fake = useFakeJsonServer<Seen['body']>(() => reply);
  const seen = fake.seen;
  beforeEach(() => {
    seen.length = 0;
    reply = () => chat(JSON.stringify(GOOD));
  });
  const make = (extra: Partial<Parameters<typeof createLlmUpdater>[0]> = {}) =>
    createLlmUpdater({ baseUrl: fake.url(), model: 'test-llm', ...extra });

  it('asks at temperature 0 with the ids enumerated in a strict schema, and maps the decisions', async () => {
    const d = make({ apiKey: 'sk-test' });
    assert.equal(d.id, 'llm:test-llm');
    const out = await d.decide(QUESTION);
    assert.deepEqual(out, {
      actions: [
        { id: 'mem_a', action: 'update' },
        { id: 'mem_b', action: 'none' },
        { id: 'mem_c', action: 'none' },
      ],
      duplicateOf: 'mem_c',
    });
    assert.equal(seen.length, 1);
    const { url, auth, body } = seen[0];
    assert.equal(url, '/v1/chat/completions');
    assert.equal(auth, 'Bearer sk-test');
    assert.equal(body.temperature, 0);
    assert.equal(body.response_format.json_schema?.name, 'memory_update');
    assert.equal(body.response_format.json_schema?.strict, true);
    const schema = body.response_format.json_schema!.schema;
    assert.deepEqual(schema.required, ['decisions', 'duplicate_of']);
    assert.deepEqual(schema.properties.decisions.items.properties.id.enum, ['mem_a', 'mem_b', 'mem_c']);
    assert.deepEqual(schema.properties.decisions.items.properties.action.enum, ['update', 'delete', 'none']);
    assert.deepEqual(schema.properties.duplicate_of.anyOf[0].enum, ['mem_a', 'mem_b', 'mem_c']);
    const user = JSON.parse(body.messages[1].content);
    assert.deepEqual(user.new_memory, { time: '2024-05-01T00:00:00.000Z', content: 'I moved to Berlin last month.' });
    assert.deepEqual(user.older_memories[0], {
      id: 'mem_a',
      time: '2022-01-01T00:00:00.000Z',
      content: 'I live in Lisbon.',
    });
  });

  it('makes no call without candidates, and shows at most five', async () => {
    assert.deepEqual(await make().decide({ ...QUESTION, candidates: [] }), { actions: [], duplicateOf: null });
    assert.equal(seen.length, 0);
    const many = Array.from({ length: 8 }, (_, i) => ({ id: `m${i}`, content: `fact ${i}`, at: QUESTION.at }));
    reply = () => chat(JSON.stringify({ decisions: [{ id: 'm4', action: 'delete' }], duplicate_of: null }));
    const out = await make().decide({ ...QUESTION, candidates: many });
    assert.equal(JSON.parse(seen[0].body.messages[1].content).older_memories.length, 5);
    assert.deepEqual(
      out.actions.map((a) => a.action),
      ['none', 'none', 'none', 'none', 'delete'],
      'a candidate left out is none',
    );
  });

  it('accepts decisions as a plain object in a fenced reply (json_object servers)', async () => {
    reply = () => chat('```json\n{"decisions": {"mem_b": "delete"}, "duplicate_of": null}\n```');
    const out = await make().decide(QUESTION);
    assert.deepEqual(
      out.actions.map((a) => a.action),
      ['none', 'delete', 'none'],
    );
    assert.equal(out.duplicateOf, null);
  });

  it('repairs a reply naming an id it was not shown, or an unknown action', async () => {
    reply = (_s, attempt) =>
      attempt === 1
        ? chat(JSON.stringify({ decisions: [{ id: 'mem_zzz', action: 'replace' }], duplicate_of: null }))
        : chat(JSON.stringify(GOOD));
    const out = await make().decide(QUESTION);
    assert.equal(seen.length, 2);
    const repair = seen[1].body.messages;
    assert.deepEqual(
      repair.map((m) => m.role),
      ['system', 'user', 'assistant', 'user'],
    );
    assert.match(repair[3].content, /does not match the schema/);
    assert.equal(out.actions[0].action, 'update');
  });

  chatFailureCases<Seen['body']>({
    call: (timeoutMs) => make({ timeoutMs }).decide(QUESTION),
    errorClass: UpdaterError,
    setReply: (r) => (reply = r),
    seen,
    unusable: 'Sure, the first one is outdated.',
  });
});
