import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useFakeJsonServer, type Reply as FakeReply, type Seen as FakeSeen } from '../../../test/fake-json-server.ts';
import { createCohereReranker, type CohereRerankerOptions } from './reranker.cohere.ts';
import { RerankerError } from './reranker.ts';

interface RerankBody {
  model?: string;
  query: string;
  documents?: string[];
  texts?: string[];
  top_n?: number;
  return_documents?: boolean;
  truncate?: boolean;
}
type Seen = FakeSeen<RerankBody>;
type Reply = FakeReply<RerankBody>;

/** A document's relevance is the number in its text ('doc 0.7' → 0.7): answers are predictable. */
const scoreOf = (text: string) => Number(/(\d+(?:\.\d+)?)/.exec(text)?.[1] ?? 0);

/** A Cohere v1/v2 answer: best first, cut to top_n, like the real service. */
const cohere = (s: Seen) => {
  const docs = s.body.documents ?? [];
  const results = docs
    .map((d, index) => ({ index, relevance_score: scoreOf(d) }))
    .sort((a, b) => b.relevance_score - a.relevance_score)
    .slice(0, s.body.top_n ?? docs.length);
  return { status: 200, body: { id: 'r1', results, meta: { billed_units: { search_units: 1 } } } };
};

/** `{index, score}` objects from [index, score] pairs: the shape results (and many answers) take. */
const ranked = (...pairs: [number, number][]) => pairs.map(([index, score]) => ({ index, score }));

const DOCS = ['doc 0.2', 'doc 0.9', 'doc 0.5', 'doc 0.7'];

describe('Cohere-compatible reranker', () => {
  let reply: Reply = cohere;
  const fake = useFakeJsonServer<RerankBody>(() => reply);
  const seen = fake.seen;
  beforeEach(() => {
    seen.length = 0;
    reply = cohere;
  });
  const make = (extra: Partial<CohereRerankerOptions> = {}) =>
    createCohereReranker({ baseUrl: fake.url(), model: 'rerank-test', timeoutMs: 5_000, ...extra });

  it('ranks best first with indexes into the documents, and sends the Cohere body with the key', async () => {
    const r = make({ apiKey: 'co-test' });
    assert.equal(r.id, 'cohere:rerank-test');
    assert.deepEqual(await r.rerank('what?', DOCS), ranked([1, 0.9], [3, 0.7], [2, 0.5], [0, 0.2]));
    assert.equal(seen.length, 1);
    assert.equal(seen[0].url, '/v1/rerank');
    assert.equal(seen[0].auth, 'Bearer co-test');
    assert.deepEqual(seen[0].body, {
      model: 'rerank-test',
      query: 'what?',
      documents: DOCS,
      return_documents: false,
    });
  });

  it('sends top_n and returns only the best topN', async () => {
    const out = await make().rerank('what?', DOCS, { topN: 2 });
    assert.deepEqual(out, ranked([1, 0.9], [3, 0.7]));
    assert.equal(seen[0].body.top_n, 2);
    assert.equal(seen[0].auth, undefined, 'no Authorization header without an apiKey');
  });

  it('cuts to topN itself when the server ignores top_n, and keeps input order on ties', async () => {
    reply = () => ({
      status: 200,
      body: { results: [0, 1, 2, 3].map((index) => ({ index, relevance_score: index === 2 ? 0.1 : 0.5 })) },
    });
    assert.deepEqual(await make().rerank('q', DOCS, { topN: 3 }), ranked([0, 0.5], [1, 0.5], [3, 0.5]));
  });

  it('accepts an API base ending in /v1 or /v2 and a full …/rerank URL; v2 gets no return_documents', async () => {
    await make({ baseUrl: `${fake.url()}/v1/` }).rerank('q', DOCS);
    await make({ baseUrl: `${fake.url()}/v2` }).rerank('q', DOCS);
    await make({ baseUrl: `${fake.url()}/rerank` }).rerank('q', DOCS);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/v1/rerank', '/v2/rerank', '/rerank'],
    );
    assert.equal(seen[0].body.return_documents, false);
    assert.equal('return_documents' in seen[1].body, false);
  });

  it('reads the variants of the answer: score for relevance_score, data for results, a plain array', async () => {
    const expected = ranked([1, 0.9], [0, 0.3]);
    const relevance = [
      { index: 1, relevance_score: 0.9, document: { text: 'b' } },
      { index: 0, relevance_score: 0.3 },
    ];
    const answers: unknown[] = [
      { results: relevance },
      { results: ranked([0, 0.3], [1, 0.9]) },
      { object: 'list', data: relevance, model: 'voyage' },
      ranked([1, 0.9], [0, 0.3]),
    ];
    for (const body of answers) {
      reply = () => ({ status: 200, body });
      assert.deepEqual(await make().rerank('q', ['a', 'b']), expected, JSON.stringify(body));
    }
  });

  it("switches to TEI's body once its /rerank asks for `texts`, and stays switched", async () => {
    reply = (s) =>
      s.body.texts
        ? {
            status: 200,
            body: s.body.texts.map((t, index) => ({ index, score: scoreOf(t) })).sort((a, b) => b.score - a.score),
          }
        : {
            status: 422,
            body: 'Failed to deserialize the JSON body into the target type: missing field `texts` at line 1 column 80',
          };
    const r = make({ baseUrl: `${fake.url()}/rerank` });
    assert.deepEqual(await r.rerank('q', DOCS, { topN: 1 }), ranked([1, 0.9]));
    assert.deepEqual(await r.rerank('q', ['x 0.1', 'y 0.3']), ranked([1, 0.3], [0, 0.1]));
    assert.deepEqual(
      seen.map((s) => Object.keys(s.body).sort().join(',')),
      ['documents,model,query,return_documents,top_n', 'query,texts,truncate', 'query,texts,truncate'],
    );
    assert.equal(seen[1].body.truncate, true);
  });

  it('returns [] for no documents without a call', async () => {
    assert.deepEqual(await make().rerank('q', []), []);
    assert.equal(seen.length, 0);
  });

  it('splits more documents than maxDocuments over several calls and merges their scores', async () => {
    const docs = Array.from({ length: 11 }, (_, i) => `doc ${((i * 7) % 11) / 10}`);
    const all = await make({ maxDocuments: 4 }).rerank('q', docs);
    assert.equal(seen.length, 3);
    assert.deepEqual(
      seen.map((s) => s.body.documents?.length),
      [4, 4, 3],
    );
    assert.deepEqual(
      all.map((r) => r.index),
      docs
        .map((d, index) => ({ index, s: scoreOf(d) }))
        .sort((a, b) => b.s - a.s)
        .map((x) => x.index),
    );
    seen.length = 0;
    const top = await make({ maxDocuments: 4 }).rerank('q', docs, { topN: 2 });
    assert.deepEqual(top, all.slice(0, 2));
    assert.deepEqual(
      seen.map((s) => s.body.top_n),
      [2, 2, 2],
      'each call asks for its own best topN only',
    );
  });

  it('turns 429 and 5xx into a retryable unavailable with Retry-After, without retrying', async () => {
    reply = () => ({ status: 429, body: { message: 'rate limited' }, headers: { 'retry-after': '3' } });
    await assert.rejects(make().rerank('q', DOCS), (err: unknown) => {
      assert.ok(err instanceof RerankerError);
      assert.equal(err.code, 'unavailable');
      assert.equal(err.retryable, true);
      assert.equal(err.retryAfterMs, 3000);
      assert.match(err.message, /cohere:rerank-test: POST .*\/v1\/rerank answered 429: rate limited/);
      return true;
    });
    reply = () => ({ status: 503, body: { error: 'overloaded' } });
    await assert.rejects(make().rerank('q', DOCS), { name: 'RerankerError', code: 'unavailable', retryable: true });
    assert.equal(seen.length, 2);
  });

  it('reports 400 and 401 as a non-retryable http_error with the server message', async () => {
    for (const [status, message] of [
      [400, 'invalid request: model not found'],
      [401, 'invalid api token'],
    ] as const) {
      reply = () => ({ status, body: { message } });
      await assert.rejects(make({ apiKey: 'bad' }).rerank('q', DOCS), (err: unknown) => {
        assert.ok(err instanceof RerankerError);
        assert.equal(err.code, 'http_error');
        assert.equal(err.retryable, false);
        assert.ok(err.message.includes(`${status}: ${message}`), err.message);
        return true;
      });
    }
  });

  it('rejects malformed answers as bad_response', async () => {
    const bodies: unknown[] = [
      'not json at all',
      { id: 'x' },
      { results: [{ index: 9, relevance_score: 0.5 }] },
      { results: [{ index: 0, relevance_score: 'high' }] },
      {
        results: [
          { index: 0, relevance_score: 0.5 },
          { index: 0, relevance_score: 0.4 },
        ],
      },
      { results: [{ index: 0.5, relevance_score: 0.5 }] },
      { results: [{ index: 0, relevance_score: 0.5 }] },
      { results: [null] },
    ];
    for (const body of bodies) {
      reply = () => ({ status: 200, body });
      await assert.rejects(
        make().rerank('q', ['a', 'b']),
        (err: unknown) => err instanceof RerankerError && err.code === 'bad_response' && !err.retryable,
        JSON.stringify(body),
      );
    }
  });

  it('times out a stalled server as unavailable', async () => {
    reply = () => 'hang';
    await assert.rejects(make({ timeoutMs: 100 }).rerank('q', DOCS), (err: unknown) => {
      assert.ok(err instanceof RerankerError);
      assert.equal(err.code, 'unavailable');
      assert.equal(err.retryable, true);
      assert.match(err.message, /timed out after 100 ms/);
      return true;
    });
  });

  it("rejects with the caller's abort reason, not unavailable, and does not call when already aborted", async () => {
    reply = () => 'hang';
    const controller = new AbortController();
    const pending = make().rerank('q', DOCS, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('search cancelled')), 50);
    await assert.rejects(pending, /search cancelled/);
    seen.length = 0;
    await assert.rejects(make().rerank('q', DOCS, { signal: AbortSignal.abort() }), { name: 'AbortError' });
    assert.equal(seen.length, 0);
  });

  it('refuses a blank query, a bad topN and a bad maxDocuments as invalid_input', async () => {
    await assert.rejects(make().rerank('  ', DOCS), { code: 'invalid_input' });
    await assert.rejects(make().rerank('q', DOCS, { topN: 0 }), { code: 'invalid_input' });
    await assert.rejects(make().rerank('q', DOCS, { topN: 1.5 }), { code: 'invalid_input' });
    assert.throws(() => make({ maxDocuments: 0 }), { code: 'invalid_input' });
    assert.equal(seen.length, 0);
  });
});
