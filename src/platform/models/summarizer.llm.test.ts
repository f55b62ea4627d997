import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { chatFailureCases, chatReply as chat } from '../../../test/llm-chat-cases.ts';
import { useFakeJsonServer, type Reply as FakeReply, type Seen as FakeSeen } from '../../../test/fake-json-server.ts';
import { emptySummary, SummarizerError, type ConversationSummary, type SummaryTurn } from './summarizer.ts';
import { createLlmSummarizer } from './summarizer.llm.ts';

interface ChatBody {
  model: string;
  temperature: number;
  max_tokens?: number;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema?: { name: string; strict: boolean; schema: { required: string[] } } };
}
type Seen = FakeSeen<ChatBody>;
type Reply = FakeReply<Seen['body']>;

const GOOD = {
  short_term: 'Ana asked Ben to review the limiter.',
  medium_term: 'Ana and Ben designed rate limiting for the gateway.',
  long_term: 'Ana and Ben decided to move billing to PostgreSQL 16, then designed rate limiting with Redis 7.2.',
  topics: ['rate limiting', 'billing migration'],
  key_decisions: ['Counters live in Redis 7.2.'],
  next_steps: ['Ben adds tests in test/limiter.test.ts.'],
  technical_details: ['src/gateway/limiter.ts holds the token bucket.'],
  session_intent: 'Ana wants rate limiting on the API gateway.',
  current_state: 'The limiter is written; tests are next.',
  project_context: [{ key: 'language', value: 'TypeScript' }],
  files_mentioned: [
    { path: 'src/gateway/limiter.ts', count: 2 },
    { path: 'test/limiter.test.ts', count: 1 },
  ],
};

const t = (speaker: string, role: string, content: string): SummaryTurn => ({ speaker, role, content });
const EARLY = [t('Ana', 'user', 'We moved billing to PostgreSQL 16.'), t('Ben', 'assistant', 'Noted.')];
const NEW = [
  t('Ana', 'user', 'Add rate limiting in src/gateway/limiter.ts please.'),
  t('Ben', 'assistant', 'Done; counters live in Redis 7.2. Tests go in test/limiter.test.ts.'),
];
const PREVIOUS: ConversationSummary = {
  ...emptySummary(new Date('2024-06-01T00:00:00Z')),
  long_term: 'Ana and Ben decided to move billing to PostgreSQL 16.',
  topics: ['billing migration'],
  key_decisions: ['Billing moves to PostgreSQL 16.'],
  session_intent: 'Ana wants to plan the billing migration.',
  project_context: { participants: ['Ana', 'Ben'], message_count: 2 },
  files_accessed: { 'src/gateway/limiter.ts': 1, 'docs/billing.md': 3 },
};
const NOW = new Date('2024-06-02T10:00:00Z');
const input = {
  recent: [...EARLY, ...NEW],
  medium: [...EARLY, ...NEW],
  newTurns: NEW,
  previous: PREVIOUS,
  title: 'Gateway work',
  now: NOW,
};

describe('LLM summarizer (OpenAI-compatible chat completions)', () => {
  let reply: Reply = () => chat(JSON.stringify(GOOD));
  const fake = useFakeJsonServer<Seen['body']>(() => reply);
  const seen = fake.seen;
  beforeEach(() => {
    seen.length = 0;
    reply = () => chat(JSON.stringify(GOOD));
  });
  const make = (extra: Partial<Parameters<typeof createLlmSummarizer>[0]> = {}) =>
    createLlmSummarizer({ baseUrl: fake.url(), model: 'test-llm', ...extra });

  it('sends the previous summary and the windows once, and maps the reply with counted fields', async () => {
    const s = make({ apiKey: 'sk-test', maxTokens: 900 });
    assert.equal(s.id, 'llm:test-llm');
    const out = await s.summarize(input);
    assert.equal(seen.length, 1);
    const { url, auth, body } = seen[0];
    assert.equal(url, '/v1/chat/completions');
    assert.equal(auth, 'Bearer sk-test');
    assert.equal(body.temperature, 0);
    assert.equal(body.max_tokens, 900);
    assert.equal(body.response_format.type, 'json_schema');
    assert.equal(body.response_format.json_schema?.strict, true);
    assert.ok(body.response_format.json_schema!.schema.required.includes('long_term'));
    const [system, user] = body.messages;
    assert.match(system.content, /Build it from the previous long_term plus the new messages/);
    assert.match(user.content, /Session title: Gateway work/);
    assert.match(user.content, /long_term: Ana and Ben decided to move billing to PostgreSQL 16\./);
    assert.match(user.content, /- Billing moves to PostgreSQL 16\./);
    assert.match(user.content, /1\. Ana \(user\): We moved billing to PostgreSQL 16\./);
    assert.match(user.content, /4\. Ben \(assistant\): Done; counters live in Redis 7\.2/);
    assert.match(user.content, /New since the previous summary \(fold these into long_term\): messages 3-4\./);
    assert.equal(user.content.match(/Add rate limiting/g)?.length, 1, 'each message is sent once');

    assert.equal(out.long_term, GOOD.long_term);
    assert.deepEqual(out.topics, GOOD.topics);
    assert.deepEqual(out.next_steps, GOOD.next_steps);
    assert.equal(out.last_updated, NOW.toISOString());
    assert.deepEqual(out.project_context, {
      participants: ['Ana', 'Ben'],
      message_count: 4,
      language: 'TypeScript',
      title: 'Gateway work',
    });
    assert.deepEqual(out.files_accessed, {
      'src/gateway/limiter.ts': 3,
      'docs/billing.md': 3,
      'test/limiter.test.ts': 1,
    });
  });

  it('sends separate sections when the windows are not tails of one transcript; no previous', async () => {
    await make().summarize({ recent: [NEW[1]], medium: EARLY, newTurns: NEW, now: NOW });
    const user = seen[0].body.messages[1].content;
    assert.match(user, /There is no previous summary/);
    assert.match(user, /New messages since the previous summary[^]*Medium-term window[^]*Short-term window/);
  });

  it('repairs fenced, invalid JSON once, showing the model its reply', async () => {
    reply = (_s, attempt) =>
      attempt === 1
        ? chat('```json\n{"short_term": "x", "long_term": }\n```')
        : chat('```json\n' + JSON.stringify(GOOD) + '\n```');
    const out = await make().summarize(input);
    assert.equal(seen.length, 2);
    const repair = seen[1].body.messages;
    assert.deepEqual(
      repair.map((m) => m.role),
      ['system', 'user', 'assistant', 'user'],
    );
    assert.match(repair[2].content, /^```json/);
    assert.match(repair[3].content, /not valid: invalid JSON/);
    assert.equal(out.long_term, GOOD.long_term);
  });

  it('repairs JSON that misses the schema, and accepts plain objects for the key-value fields', async () => {
    reply = (_s, attempt) =>
      attempt === 1
        ? chat(JSON.stringify({ ...GOOD, long_term: '' }))
        : chat(
            JSON.stringify({
              ...GOOD,
              project_context: { language: 'Go' },
              files_mentioned: { 'main.go': 2 },
              topics: null,
            }),
          );
    const out = await make().summarize({ ...input, previous: undefined });
    assert.match(seen[1].body.messages[3].content, /does not match the schema/);
    assert.deepEqual(out.files_accessed, { 'main.go': 2 });
    assert.equal(out.project_context.language, 'Go');
    assert.deepEqual(out.topics, []);
    assert.equal(out.project_context.message_count, 2);
  });

  chatFailureCases<Seen['body']>({
    call: (timeoutMs) => make({ timeoutMs }).summarize(input),
    errorClass: SummarizerError,
    setReply: (r) => (reply = r),
    seen,
    unusable: 'Here is a summary: they talked.',
  });

  it('reports a 400 as a permanent http_error', async () => {
    reply = () => ({ status: 400, body: { error: { message: 'unknown model test-llm' } } });
    await assert.rejects(make().summarize(input), (err: unknown) => {
      assert.ok(err instanceof SummarizerError);
      assert.equal(err.code, 'http_error');
      assert.equal(err.retryable, false);
      assert.match(err.message, /400: unknown model test-llm/);
      return true;
    });
  });

  it('falls back to json_object when the server rejects json_schema, and remembers it', async () => {
    reply = (s) =>
      s.body.response_format.type === 'json_schema'
        ? { status: 400, body: { error: { message: "response_format 'json_schema' is not supported" } } }
        : chat(JSON.stringify(GOOD));
    const s = make();
    await s.summarize(input);
    await s.summarize(input);
    assert.deepEqual(
      seen.map((x) => x.body.response_format.type),
      ['json_schema', 'json_object', 'json_object'],
    );
  });

  it('treats a refusal as bad_response, and makes no request without turns', async () => {
    reply = () => ({
      status: 200,
      body: { choices: [{ message: { role: 'assistant', content: null, refusal: 'No.' } }] },
    });
    await assert.rejects(
      make().summarize(input),
      (err: unknown) => err instanceof SummarizerError && err.code === 'bad_response' && !err.retryable,
    );
    seen.length = 0;
    assert.deepEqual(await make().summarize({ recent: [], medium: [], newTurns: [], now: NOW }), emptySummary(NOW));
    assert.equal(seen.length, 0);
  });
});
