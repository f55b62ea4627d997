/**
 * One JSON object from any OpenAI-compatible `/v1/chat/completions` endpoint: what the LLM
 * adapters (extractor.llm.ts, summarizer.llm.ts) share. The reply is asked for as JSON
 * constrained by a JSON schema (`response_format: json_schema`; once a server rejects that, as
 * `json_object` from then on), parsed by the caller's `parse`, and repaired once: the model is
 * shown its reply and what was wrong with it.
 *
 * Errors, made by the adapter's own error class: transport failures, timeouts, 429, 5xx and a
 * 200 that is not JSON are retryable 'unavailable'; other HTTP errors are 'http_error'; a
 * refusal, or output still unusable after the repair, is 'bad_response'.
 */
import { z } from 'zod';
import { endpointUrl, errorMessage, postJson, retryableStatus, retryAfterMs } from './openai-http.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** How to reach the model (the adapters' options). */
export interface ChatJsonOptions {
  /** Server root or API base: 'http://host:8000', 'https://api.openai.com/v1' or a full '…/chat/completions' URL. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Per-request timeout, body included. */
  timeoutMs: number;
  /** Start with 'json_schema' (default; falls back to 'json_object' once if the server rejects it) or 'json_object'. */
  responseFormat?: 'json_schema' | 'json_object';
  /** Sampling temperature (default 0: output should be repeatable). */
  temperature?: number;
  /** Sent as `max_tokens` when set. */
  maxTokens?: number;
  /** Injectable for tests and proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export type ChatErrorCode = 'unavailable' | 'http_error' | 'bad_response';
export type MakeChatError = (
  code: ChatErrorCode,
  message: string,
  retryable: boolean,
  options?: { cause?: unknown; retryAfterMs?: number },
) => Error;
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** A client for one kind of reply (`schemaName`, e.g. 'graph_extraction'); `name` prefixes its errors. */
export function chatJsonClient(options: ChatJsonOptions, schemaName: string, error: MakeChatError) {
  const url = endpointUrl(options.baseUrl, 'chat/completions');
  const doFetch = options.fetch ?? fetch;
  const name = `llm:${options.model}`;
  let format = options.responseFormat ?? 'json_schema';

  async function complete(messages: ChatMessage[], jsonSchema: object): Promise<string> {
    const body: Record<string, unknown> = { model: options.model, messages, temperature: options.temperature ?? 0 };
    if (options.maxTokens) body.max_tokens = options.maxTokens;
    body.response_format =
      format === 'json_schema'
        ? { type: 'json_schema', json_schema: { name: schemaName, strict: true, schema: jsonSchema } }
        : { type: 'json_object' };
    const { res, text } = await postJson(doFetch, url, body, {
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs,
      unavailable: (reason, cause) => error('unavailable', `${name}: POST ${url} ${reason}`, true, { cause }),
    });
    // Servers without structured output reject json_schema with a 400 that names it: use json_object from now on.
    if (
      (res.status === 400 || res.status === 422) &&
      format === 'json_schema' &&
      /response_format|json_schema|structured/i.test(text)
    ) {
      format = 'json_object';
      return complete(messages, jsonSchema);
    }
    if (!res.ok) {
      const retryable = retryableStatus(res.status);
      throw error(
        retryable ? 'unavailable' : 'http_error',
        `${name}: POST ${url} answered ${res.status}: ${errorMessage(text)}`,
        retryable,
        { retryAfterMs: retryAfterMs(res.headers.get('retry-after')) },
      );
    }
    let message: { content?: unknown; refusal?: unknown } | undefined;
    try {
      message = (JSON.parse(text) as { choices?: { message?: typeof message }[] }).choices?.[0]?.message;
    } catch {
      // A 200 that is not JSON is a proxy or server fault, not the model's: worth retrying.
      throw error('unavailable', `${name}: response is not JSON: ${text.slice(0, 200)}`, true);
    }
    if (typeof message?.refusal === 'string' && message.refusal)
      throw error('bad_response', `${name}: the model refused: ${message.refusal.slice(0, 300)}`, false);
    return typeof message?.content === 'string' ? message.content : '';
  }

  return {
    name,
    /** The parsed reply to `messages`, after at most one repair round. */
    async ask<T>(messages: ChatMessage[], jsonSchema: object, parse: (reply: string) => Parsed<T>): Promise<T> {
      const first = await complete(messages, jsonSchema);
      const parsed = parse(first);
      if (parsed.ok) return parsed.value;
      const repair: ChatMessage[] = [
        ...messages,
        { role: 'assistant', content: first },
        {
          role: 'user',
          content:
            `That reply is not valid: ${parsed.error}. ` +
            `Reply again with only the corrected JSON object, nothing else.`,
        },
      ];
      const second = await complete(repair, jsonSchema);
      const again = parse(second);
      if (again.ok) return again.value;
      throw error(
        'bad_response',
        `${name}: unusable output after one repair attempt: ${again.error}; reply began: ${second.slice(0, 200)}`,
        false,
      );
    },
  };
}

/** A parser of the model's text against `schema`; tolerates code fences and prose around the JSON object. */
export function parseJsonReply<T>(schema: z.ZodType<T>): (text: string) => Parsed<T> {
  return (text) => {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end < start) return { ok: false, error: 'no JSON object found' };
    let json: unknown;
    try {
      json = JSON.parse(text.slice(start, end + 1));
    } catch (err) {
      return { ok: false, error: `invalid JSON (${(err as Error).message})` };
    }
    const result = schema.safeParse(json);
    return result.success
      ? { ok: true, value: result.data }
      : {
          ok: false,
          error: `does not match the schema: ${z.prettifyError(result.error).replace(/\s+/g, ' ').slice(0, 300)}`,
        };
  };
}
