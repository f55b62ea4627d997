import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { chatFailureCases, chatReply as chat } from '../../../test/llm-chat-cases.ts';
import { useFakeJsonServer, type Reply as FakeReply, type Seen as FakeSeen } from '../../../test/fake-json-server.ts';
import { DEFAULT_NODE_TYPES, ExtractorError, type GraphSchema } from './extractor.ts';
import { chatCompletionsUrl, createLlmExtractor } from './extractor.llm.ts';

interface ChatBody {
  model: string;
  temperature: number;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema?: { name: string; strict: boolean; schema: JsonSchema } };
}
interface JsonSchema {
  properties: Record<string, { items: { properties: Record<string, { enum?: string[] }> } }>;
}
type Seen = FakeSeen<ChatBody>;
type Reply = FakeReply<Seen['body']>;

const GOOD = {
  nodes: [
    { id: 'speaker', type: 'Person', name: 'Sam', properties: [], mentions: ['I'] },
    {
      id: 'n1',
      type: 'Person',
      name: 'jane doe',
      properties: [{ key: 'age', value: 31 }],
      mentions: ['my sister Jane'],
    },
    { id: 'n2', type: 'Organization', name: 'Google', properties: [], mentions: ['Google'] },
    {
      id: 'n3',
      type: 'Place',
      name: 'San Francisco',
      properties: [{ key: 'country', value: 'USA' }],
      mentions: ['San Francisco'],
    },
    { id: 'n4', type: 'Spaceship', name: 'Enterprise', properties: [], mentions: ['Enterprise'] },
  ],
  relationships: [
    { source: 'speaker', target: 'n1', type: 'FAMILY', properties: [{ key: 'relation', value: 'sister' }] },
    { source: 'n1', target: 'n2', type: 'works at', properties: [] },
    { source: 'n1', target: 'n3', type: 'LIVES_IN', properties: [] },
    { source: 'n1', target: 'n4', type: 'PILOTS', properties: [] },
    { source: 'n1', target: 'n9', type: 'MET', properties: [] },
  ],
};

describe('LLM extractor (OpenAI-compatible chat completions)', () => {
  let reply: Reply = () => chat(JSON.stringify(GOOD));
  const fake = useFakeJsonServer<Seen['body']>(() => reply);
  const seen = fake.seen;
  beforeEach(() => {
    seen.length = 0;
    reply = () => chat(JSON.stringify(GOOD));
  });
  const make = (extra: Partial<Parameters<typeof createLlmExtractor>[0]> = {}) =>
    createLlmExtractor({ baseUrl: fake.url(), model: 'test-llm', ...extra });
  const input = {
    content: 'My sister Jane works at Google and lives in San Francisco.',
    speaker: 'Sam',
    createdAt: new Date('2023-05-08T12:00:00Z'),
  };

  it('sends a json_schema request with the types enumerated and the auth header, and maps the reply', async () => {
    const e = make({ apiKey: 'sk-test' });
    assert.equal(e.id, 'llm:test-llm');
    const x = await e.extract({ ...input, context: [{ role: 'user', content: 'Hi, I am Sam.' }] });
    assert.equal(seen.length, 1);
    const { url, auth, body } = seen[0];
    assert.equal(url, '/v1/chat/completions');
    assert.equal(auth, 'Bearer sk-test');
    assert.equal(body.model, 'test-llm');
    assert.equal(body.temperature, 0);
    assert.equal(body.response_format.type, 'json_schema');
    assert.equal(body.response_format.json_schema?.strict, true);
    const schema = body.response_format.json_schema!.schema;
    assert.deepEqual(schema.properties.nodes.items.properties.type.enum, [...DEFAULT_NODE_TYPES]);
    assert.ok(schema.properties.relationships.items.properties.type.enum?.includes('WORKS_AT'));
    assert.deepEqual(
      body.messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.match(body.messages[1].content, /Reference date: 2023-05-08 \(Monday\)/);
    assert.match(body.messages[1].content, /Speaker: Sam/);
    assert.match(body.messages[1].content, /user: Hi, I am Sam\./);
    assert.match(body.messages[1].content, /Memory:\nMy sister Jane works at Google/);

    assert.deepEqual(
      x.nodes.map((n) => [n.key, n.type, n.name, n.properties]),
      [
        ['speaker', 'Person', 'Sam', {}],
        ['person:jane-doe', 'Person', 'Jane Doe', { age: 31 }],
        ['organization:google', 'Organization', 'Google', {}],
        ['place:san-francisco', 'Place', 'San Francisco', { country: 'USA' }],
      ],
      'the unknown type Spaceship is dropped; names are canonical; properties become an object',
    );
    assert.deepEqual(x.relationships, [
      { source: 'speaker', target: 'person:jane-doe', type: 'FAMILY', properties: { relation: 'sister' } },
      { source: 'person:jane-doe', target: 'organization:google', type: 'WORKS_AT' },
      { source: 'person:jane-doe', target: 'place:san-francisco', type: 'LIVES_IN' },
    ]);
  });

  it('sends no Authorization header without an apiKey, and accepts a base URL ending in /v1', async () => {
    await make({ baseUrl: `${fake.url()}/v1/` }).extract(input);
    assert.equal(seen[0].auth, undefined);
    assert.equal(seen[0].url, '/v1/chat/completions');
  });

  it('passes property guidance from the graph policy to the model, and none without it', async () => {
    await make().extract({ ...input, guidance: ['Task.priority: one of low, medium, high'] });
    const system = (seen[0].body as any).messages[0].content as string;
    assert.match(system, /Property guidance[^]*- Task\.priority: one of low, medium, high/);
    await make().extract(input);
    assert.doesNotMatch((seen[1].body as any).messages[0].content, /Property guidance/);
  });

  it('constrains the request to a user schema and drops everything outside it', async () => {
    const schema: GraphSchema = {
      node_types: [
        { name: 'Person', properties: [{ name: 'age', type: 'integer' }] },
        { name: 'Company', properties: [{ name: 'sector', type: 'string', enum: ['tech', 'retail'] }] },
      ],
      relationship_types: [{ name: 'WORKS_FOR', source_types: ['Person'], target_types: ['Company'] }],
    };
    reply = () =>
      chat(
        JSON.stringify({
          nodes: [
            { id: 'a', type: 'Person', name: 'Jane', properties: [{ key: 'age', value: '31' }], mentions: ['Jane'] },
            {
              id: 'b',
              type: 'company',
              name: 'Google',
              properties: [{ key: 'sector', value: 'search' }],
              mentions: ['Google'],
            },
            { id: 'c', type: 'Place', name: 'San Francisco', properties: [], mentions: ['San Francisco'] },
          ],
          relationships: [
            { source: 'a', target: 'b', type: 'WORKS_FOR', properties: [] },
            { source: 'b', target: 'a', type: 'WORKS_FOR', properties: [] },
            { source: 'a', target: 'c', type: 'LIVES_IN', properties: [] },
          ],
        }),
      );
    const x = await make().extract({ ...input, schema });
    const sent = seen[0].body.response_format.json_schema!.schema;
    assert.deepEqual(sent.properties.nodes.items.properties.type.enum, ['Person', 'Company']);
    assert.deepEqual(sent.properties.relationships.items.properties.type.enum, ['WORKS_FOR']);
    assert.match(seen[0].body.messages[0].content, /sector: string, one of "tech" \| "retail"/);
    assert.deepEqual(
      x.nodes.map((n) => [n.type, n.name, n.properties]),
      [
        ['Person', 'Jane', { age: 31 }],
        ['Company', 'Google', {}],
      ],
      'Place is not in the schema; an enum violation drops the property; "31" is coerced',
    );
    assert.deepEqual(x.relationships, [{ source: 'person:jane', target: 'company:google', type: 'WORKS_FOR' }]);
  });

  it('repairs invalid JSON once, showing the model its reply', async () => {
    reply = (_s, attempt) =>
      attempt === 1
        ? chat('Sure! Here is the graph: {"nodes": [{"id": "n1", "type": "Person"')
        : chat('```json\n' + JSON.stringify(GOOD) + '\n```');
    const x = await make().extract(input);
    assert.equal(seen.length, 2);
    const repair = seen[1].body.messages;
    assert.deepEqual(
      repair.map((m) => m.role),
      ['system', 'user', 'assistant', 'user'],
    );
    assert.match(repair[2].content, /^Sure! Here is the graph/);
    assert.match(repair[3].content, /not valid: (?:no JSON object found|invalid JSON)/);
    assert.equal(x.nodes.length, 4);
  });

  it('repairs output that is JSON but not the schema', async () => {
    reply = (_s, attempt) => (attempt === 1 ? chat('{"entities": []}') : chat(JSON.stringify(GOOD)));
    const x = await make().extract(input);
    assert.equal(seen.length, 2);
    assert.match(seen[1].body.messages[3].content, /does not match the schema/);
    assert.equal(x.relationships.length, 3);
  });

  chatFailureCases<Seen['body']>({
    call: (timeoutMs) => make({ timeoutMs }).extract(input),
    errorClass: ExtractorError,
    setReply: (r) => (reply = r),
    seen,
    unusable: 'I cannot help with that.',
  });

  it('reports a bad key as a non-retryable http_error', async () => {
    reply = () => ({ status: 401, body: { error: { message: 'invalid api key' } } });
    await assert.rejects(make({ apiKey: 'wrong' }).extract(input), (err: unknown) => {
      assert.ok(err instanceof ExtractorError);
      assert.equal(err.code, 'http_error');
      assert.equal(err.retryable, false);
      assert.match(err.message, /401: invalid api key/);
      return true;
    });
  });

  it('falls back to json_object when the server rejects json_schema, and remembers it', async () => {
    reply = (s) =>
      s.body.response_format.type === 'json_schema'
        ? { status: 400, body: { error: { message: "response_format 'json_schema' is not supported" } } }
        : chat(
            JSON.stringify({
              nodes: [{ id: 1, type: 'Organization', name: 'Google', properties: { founded: 1998, note: null } }],
            }),
          );
    const e = make();
    const x = await e.extract(input);
    assert.deepEqual(
      seen.map((s) => s.body.response_format.type),
      ['json_schema', 'json_object'],
    );
    assert.deepEqual(x.nodes, [
      {
        key: 'organization:google',
        type: 'Organization',
        name: 'Google',
        properties: { founded: 1998 },
        mentions: ['Google'],
      },
    ]);
    await e.extract(input);
    assert.deepEqual(
      seen.map((s) => s.body.response_format.type),
      ['json_schema', 'json_object', 'json_object'],
    );
  });

  it('treats a refusal as a non-retryable bad_response and skips blank content', async () => {
    reply = () => ({
      status: 200,
      body: { choices: [{ message: { role: 'assistant', content: null, refusal: 'I will not.' } }] },
    });
    await assert.rejects(
      make().extract(input),
      (err: unknown) => err instanceof ExtractorError && err.code === 'bad_response' && !err.retryable,
    );
    seen.length = 0;
    assert.deepEqual(await make().extract({ content: '   ' }), { nodes: [], relationships: [] });
    assert.equal(seen.length, 0);
  });

  it('builds the endpoint URL from a root, a versioned base or the full URL', () => {
    assert.equal(chatCompletionsUrl('http://h:8000'), 'http://h:8000/v1/chat/completions');
    assert.equal(chatCompletionsUrl('https://api.openai.com/v1'), 'https://api.openai.com/v1/chat/completions');
    assert.equal(chatCompletionsUrl('http://h/api/chat/completions/'), 'http://h/api/chat/completions');
  });
});
