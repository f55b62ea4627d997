import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useFakeJsonServer, type Reply as FakeReply, type Seen as FakeSeen } from '../../../test/fake-json-server.ts';
import { dot, EmbedderError } from './embedder.ts';
import { createOpenAICompatibleEmbedder, embeddingsUrl } from './openai-compatible.ts';

type Seen = FakeSeen<{ model: string; input: string[]; dimensions?: number }>;
type Reply = FakeReply<Seen['body']>;

/** A vector that depends on the text, so order mix-ups show; deliberately not unit-length. */
const vectorFor = (text: string, dims: number) => Array.from({ length: dims }, (_, i) => ((text.length + i) % 7) + 1);

/** OpenAI's answer shape, rows listed in reverse so the client must sort by `index`. */
const ok = (seen: Seen, dims = 8) => ({
  status: 200,
  body: {
    object: 'list',
    model: seen.body.model,
    data: seen.body.input.map((t, index) => ({ object: 'embedding', index, embedding: vectorFor(t, dims) })).reverse(),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  },
});

describe('OpenAI-compatible embedder', () => {
  let reply: Reply = (s) => ok(s);
  const fake = useFakeJsonServer<Seen['body']>(() => reply);
  const seen = fake.seen;
  beforeEach(() => {
    seen.length = 0;
    reply = (s) => ok(s);
  });
  const make = (extra: Partial<Parameters<typeof createOpenAICompatibleEmbedder>[0]> = {}) =>
    createOpenAICompatibleEmbedder({
      baseUrl: fake.url(),
      model: 'test-embed',
      dimensions: 8,
      retryBaseMs: 1,
      ...extra,
    });

  it('sends {model, input}, sorts rows by index and normalises them', async () => {
    const e = make({ apiKey: 'sk-test' });
    assert.equal(e.id, 'openai:test-embed');
    assert.equal(e.dimensions, 8);
    const texts = ['a', 'bbbb', 'cc'];
    const vectors = await e.embed(texts);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].url, '/v1/embeddings');
    assert.equal(seen[0].auth, 'Bearer sk-test');
    assert.deepEqual(seen[0].body, { model: 'test-embed', input: texts });
    texts.forEach((t, i) => {
      const raw = vectorFor(t, 8);
      const expected = raw.map((x) => x / Math.hypot(...raw));
      assert.ok(Math.abs(dot(vectors[i], vectors[i]) - 1) < 1e-12);
      assert.ok(Math.abs(dot(vectors[i], expected) - 1) < 1e-12, `row ${i} belongs to "${t}"`);
    });
  });

  it('splits large inputs into batches and skips blank texts', async () => {
    const e = make({ batchSize: 2 });
    const vectors = await e.embed(['one', '', 'three', 'four', '  ', 'six']);
    assert.deepEqual(
      seen.map((s) => s.body.input),
      [
        ['one', 'three'],
        ['four', 'six'],
      ],
    );
    assert.equal(vectors.length, 6);
    for (const v of vectors) assert.ok(Math.abs(dot(v, v) - 1) < 1e-12);
    assert.equal(seen[0].auth, undefined, 'no Authorization header without an apiKey');
  });

  it('retries a 500 and then succeeds', async () => {
    reply = (s, attempt) => (attempt === 1 ? { status: 500, body: { error: { message: 'model warming up' } } } : ok(s));
    const vectors = await make().embed(['hello']);
    assert.equal(seen.length, 2);
    assert.equal(vectors[0].length, 8);
  });

  it('retries a 429 that carries Retry-After', async () => {
    reply = (s, attempt) =>
      attempt === 1 ? { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '0' } } : ok(s);
    await make().embed(['hello']);
    assert.equal(seen.length, 2);
  });

  it('gives up after the configured retries with a clear error', async () => {
    reply = () => ({ status: 503, body: { error: { message: 'overloaded' } } });
    await assert.rejects(make({ maxRetries: 2 }).embed(['x']), (err: unknown) => {
      assert.ok(err instanceof EmbedderError);
      assert.equal(err.code, 'unavailable');
      assert.equal(err.retryable, true);
      assert.match(err.message, /503: overloaded \(gave up after 3 attempts\)/);
      return true;
    });
    assert.equal(seen.length, 3);
  });

  it('does not retry a 4xx and reports the server message', async () => {
    reply = () => ({ status: 400, body: { error: { message: "model 'test-embed' not found" } } });
    await assert.rejects(make().embed(['x']), (err: unknown) => {
      assert.ok(err instanceof EmbedderError);
      assert.equal(err.code, 'http_error');
      assert.match(err.message, /400: model 'test-embed' not found/);
      return true;
    });
    assert.equal(seen.length, 1);
  });

  it('rejects vectors of the wrong size, naming both sizes', async () => {
    reply = (s) => ok(s, 12);
    await assert.rejects(make().embed(['x']), (err: unknown) => {
      assert.ok(err instanceof EmbedderError);
      assert.equal(err.code, 'dimension_mismatch');
      assert.match(err.message, /returned 12-dimensional vectors but 8 are configured/);
      return true;
    });
    assert.equal(seen.length, 1, 'a dimension mismatch is not retried');
  });

  it('rejects malformed bodies', async () => {
    reply = () => ({ status: 200, body: { data: [{ index: 0, embedding: 'AAAA' }] } });
    await assert.rejects(make().embed(['x']), { name: 'EmbedderError', code: 'bad_response' });
    reply = () => ({ status: 200, body: { data: [] } });
    await assert.rejects(make().embed(['x']), { code: 'bad_response' });
  });

  it('times out a stalled server', async () => {
    reply = () => 'hang';
    await assert.rejects(make({ timeoutMs: 100, maxRetries: 1 }).embed(['x']), (err: unknown) => {
      assert.ok(err instanceof EmbedderError);
      assert.equal(err.code, 'unavailable');
      assert.match(err.message, /timed out after 100 ms/);
      return true;
    });
    assert.equal(seen.length, 2);
  });

  it('reports an unreachable server as retryable unavailability', async () => {
    const e = createOpenAICompatibleEmbedder({
      baseUrl: 'http://127.0.0.1:1',
      model: 'm',
      dimensions: 8,
      maxRetries: 0,
    });
    await assert.rejects(e.embed(['x']), { name: 'EmbedderError', code: 'unavailable', retryable: true });
  });

  it('can send dimensions for models with adjustable output', async () => {
    await make({ sendDimensions: true }).embed(['x']);
    assert.equal(seen[0].body.dimensions, 8);
  });

  it('accepts a server root, an API base or the full endpoint', () => {
    assert.equal(embeddingsUrl('http://h:8000'), 'http://h:8000/v1/embeddings');
    assert.equal(embeddingsUrl('https://api.openai.com/v1/'), 'https://api.openai.com/v1/embeddings');
    assert.equal(embeddingsUrl('http://h/proxy/embeddings'), 'http://h/proxy/embeddings');
  });
});
