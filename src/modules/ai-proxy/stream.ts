/**
 * A streamed upstream answer passed through chunk by chunk (never buffered), read on the way
 * for its tokens and text: server-sent events as they are parsed (eventsource-parser), Google's
 * streamed JSON array from a bounded copy at its end. When the stream ends — completely, broken
 * by the upstream, or cancelled because the caller went away — `done` runs once with what was seen.
 */
import { createParser } from 'eventsource-parser';
import type { AnswerReader, Usage } from './provider-kit.ts';
import type { UpstreamAnswer } from './upstream.ts';

export interface StreamOutcome {
  /** The upstream finished its answer. */
  complete: boolean;
  /** The upstream broke off (not a cancellation by our caller). */
  failed: boolean;
  usage: Usage;
  text: string;
}

/** How much of a JSON-array stream is kept to read its usage at the end (beyond: tokens unread). */
const MAX_JSON_COPY = 8 * 1024 * 1024;

/** An SSE `error` event in our envelope: a stream cannot change its status once it has begun. */
export function errorEvent(message: string, details: Record<string, unknown>): Uint8Array {
  const body = { code: 502, status: 'error', error: message, details };
  return new TextEncoder().encode(`event: error\ndata: ${JSON.stringify(body)}\n\n`);
}

/** Feed a JSON array (or one object) to `reader.whole`, element by element; unparsable text is skipped. */
function readJsonArray(text: string, reader: AnswerReader): void {
  try {
    const parsed: unknown = JSON.parse(text);
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) reader.whole(item);
  } catch {
    // Not JSON after all (or cut): no tokens to read.
  }
}

/**
 * The pass-through body of `answer`. `sse`: the answer is text/event-stream (`data: [DONE]` and
 * non-JSON data are passed on but not read). `done` is awaited before the body ends, so the
 * usage row and the stored exchange exist when the caller sees the end of the stream.
 */
export function tapStream(
  answer: UpstreamAnswer,
  reader: AnswerReader,
  opts: { sse: boolean; provider: string; done: (outcome: StreamOutcome) => Promise<void> },
): { body: AsyncIterable<Uint8Array>; cancel(): void } {
  let cancelled = false;
  const decoder = new TextDecoder();
  const parser = opts.sse
    ? createParser({
        onEvent(e) {
          if (e.data === '[DONE]') return;
          try {
            reader.event(JSON.parse(e.data), e.event);
          } catch {
            // Not JSON: passed on, not read.
          }
        },
      })
    : null;
  const copy: string[] = [];
  let copied = 0;

  async function* body(): AsyncGenerator<Uint8Array> {
    let complete = false;
    let failure: Error | null = null;
    try {
      for await (const chunk of answer.body) {
        const text = decoder.decode(chunk, { stream: true });
        if (parser) parser.feed(text);
        else if (copied <= MAX_JSON_COPY) {
          copy.push(text);
          copied += text.length;
        }
        yield chunk;
      }
      complete = true;
    } catch (err) {
      failure = err as Error;
      if (!cancelled && opts.sse)
        yield errorEvent(`The ${opts.provider} upstream broke off its answer: ${failure.message}`, {
          provider: opts.provider,
        });
    } finally {
      if (!parser && complete && copied <= MAX_JSON_COPY) readJsonArray(copy.join(''), reader);
      await opts.done({ complete, failed: !!failure && !cancelled, ...reader.result() });
    }
  }

  return {
    body: body(),
    cancel() {
      cancelled = true;
      answer.cancel();
    },
  };
}
