/**
 * OpenAI's Chat Completions and Responses APIs (paths under a base URL that ends in /v1, as the
 * OpenAI SDKs' `baseURL`). Memories go into a system message (chat) or `instructions`
 * (Responses); tokens are `usage.prompt_tokens/completion_tokens` (chat; in a stream the final
 * chunk, which the proxy asks for with `stream_options.include_usage`) and
 * `usage.input_tokens/output_tokens` (Responses; in a stream the `response.completed` event).
 */
import {
  Accumulator,
  appended,
  asArray,
  asObject,
  contentText,
  count,
  lastUser,
  type Body,
  type OperationSpec,
} from './provider-kit.ts';

const INSTRUCTION_ROLES = new Set(['system', 'developer']);

export const openaiChat: OperationSpec = {
  provider: 'openai',
  path: () => '/chat/completions',

  lastUserText: (body) => contentText(lastUser(body.messages)?.content, ['text']),

  /** A system message after the caller's own leading system/developer messages. */
  inject(body, context) {
    const messages = asArray(body.messages);
    let at = 0;
    while (at < messages.length && INSTRUCTION_ROLES.has(asObject(messages[at]).role as string)) at++;
    const system = { role: 'system', content: context };
    return { ...body, messages: [...messages.slice(0, at), system, ...messages.slice(at)] };
  },

  /** A stream reports its tokens only in a final chunk the caller must ask for: ask, unless told not to. */
  prepare(body): Body {
    if (body.stream !== true) return body;
    const options = asObject(body.stream_options);
    if (options.include_usage !== undefined) return body;
    return { ...body, stream_options: { ...options, include_usage: true } };
  },

  reader() {
    const acc = new Accumulator();
    const usage = (u: unknown) => {
      const x = asObject(u);
      acc.tokens(count(x.prompt_tokens), count(x.completion_tokens));
    };
    return {
      whole(body) {
        const b = asObject(body);
        usage(b.usage);
        acc.add(contentText(asObject(asObject(asArray(b.choices)[0]).message).content, ['text']));
      },
      event(data) {
        const chunk = asObject(data);
        if (chunk.usage) usage(chunk.usage);
        acc.add(asObject(asObject(asArray(chunk.choices)[0]).delta).content);
      },
      result: () => acc.result(),
    };
  },
};

/** The output text of a Responses answer: its message items' `output_text` parts. */
function responsesText(response: Record<string, unknown>): string {
  return asArray(response.output)
    .map((item) => asObject(item))
    .filter((item) => item.type === 'message')
    .map((item) => contentText(item.content, ['output_text']))
    .filter(Boolean)
    .join('\n');
}

/** The last user input of a Responses body: `input` as a string, or its last user item. */
function responsesInput(body: Body): string {
  if (typeof body.input === 'string') return body.input;
  return contentText(lastUser(body.input)?.content, ['input_text', 'text']);
}

const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

export const openaiResponses: OperationSpec = {
  provider: 'openai',
  path: () => '/responses',
  lastUserText: responsesInput,
  inject: (body, context) => ({ ...body, instructions: appended(body.instructions, context) }),

  reader() {
    const acc = new Accumulator();
    const read = (response: Record<string, unknown>) => {
      const u = asObject(response.usage);
      acc.tokens(count(u.input_tokens), count(u.output_tokens));
    };
    return {
      whole(body) {
        const b = asObject(body);
        read(b);
        acc.add(responsesText(b));
      },
      event(data, name) {
        const e = asObject(data);
        const type = name ?? (e.type as string | undefined);
        if (type === 'response.output_text.delta') acc.add(e.delta);
        else if (type && FINAL_EVENTS.has(type)) {
          const response = asObject(e.response);
          read(response);
          const text = responsesText(response);
          if (text) acc.replace(text);
        }
      },
      result: () => acc.result(),
    };
  },
};
