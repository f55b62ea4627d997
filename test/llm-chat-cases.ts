/**
 * What the tests of the JSON-answering chat adapters share (the LLM extractor, summarizer and
 * update decider, and the chat reranker's reply): an OpenAI chat-completions answer, and the
 * failure cases every one of them must handle alike — an unusable reply after one repair, a 500,
 * a 429 with Retry-After, a server that never answers.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Reply } from './fake-json-server.ts';
import { ModelError } from '../src/platform/models/model-error.ts';

/** A chat-completions answer whose assistant message is `content`. */
export const chatReply = (content: string) => ({
  status: 200,
  body: {
    id: 'c1',
    object: 'chat.completion',
    model: 'test-llm',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
  },
});

/**
 * The shared failure cases, as `it`s of the enclosing suite: `call` makes one adapter call (with
 * `timeoutMs` when given), `errorClass` is what the adapter throws, `setReply` sets the fake
 * server's answer, `seen` is its request log, and `unusable` a reply with no JSON in it.
 */
export function chatFailureCases<Body>(t: {
  call: (timeoutMs?: number) => Promise<unknown>;
  errorClass: abstract new (...args: never[]) => ModelError<string>;
  setReply: (reply: Reply<Body>) => void;
  seen: unknown[];
  unusable: string;
}) {
  const failsWith = (check: (err: ModelError<string>) => void) => (err: unknown) => {
    assert.ok(err instanceof t.errorClass, `${String(err)} is not a ${t.errorClass.name}`);
    check(err);
    return true;
  };

  it('gives up with a non-retryable bad_response after one failed repair', async () => {
    t.setReply(() => chatReply(t.unusable));
    await assert.rejects(
      t.call(),
      failsWith((err) => {
        assert.equal(err.code, 'bad_response');
        assert.equal(err.retryable, false);
        assert.match(err.message, /after one repair attempt: no JSON object found/);
      }),
    );
    assert.equal(t.seen.length, 2);
  });

  it('turns a 500 into a retryable unavailable without retrying itself', async () => {
    t.setReply(() => ({ status: 500, body: { error: { message: 'model crashed' } } }));
    await assert.rejects(
      t.call(),
      failsWith((err) => {
        assert.equal(err.code, 'unavailable');
        assert.equal(err.retryable, true);
        assert.match(err.message, /llm:test-llm: POST .*\/v1\/chat\/completions answered 500: model crashed/);
      }),
    );
    assert.equal(t.seen.length, 1);
  });

  it('passes Retry-After of a 429 on', async () => {
    t.setReply(() => ({ status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '3' } }));
    await assert.rejects(
      t.call(),
      failsWith((err) => {
        assert.equal(err.code, 'unavailable');
        assert.equal(err.retryable, true);
        assert.equal(err.retryAfterMs, 3000);
      }),
    );
  });

  it('times out with a retryable unavailable', async () => {
    t.setReply(() => 'hang');
    await assert.rejects(
      t.call(100),
      failsWith((err) => {
        assert.equal(err.code, 'unavailable');
        assert.equal(err.retryable, true);
        assert.match(err.message, /timed out after 100 ms/);
      }),
    );
  });
}
