/**
 * Anthropic's Messages API (`/v1/messages` under a base URL like https://api.anthropic.com, as
 * the Anthropic SDKs' `baseURL`). Memories go into `system`; tokens are `usage.input_tokens`
 * (with the cache's creation and read tokens, which Anthropic counts apart) and
 * `usage.output_tokens`, in a stream from `message_start` and the running totals of
 * `message_delta`.
 */
import {
  Accumulator,
  appended,
  asArray,
  asObject,
  contentText,
  count,
  lastUser,
  type OperationSpec,
} from './provider-kit.ts';

/** Input tokens as Anthropic splits them: uncached, written to the cache, read from it. */
function inputTokens(usage: Record<string, unknown>): number {
  return count(usage.input_tokens) + count(usage.cache_creation_input_tokens) + count(usage.cache_read_input_tokens);
}

export const anthropic: OperationSpec = {
  provider: 'anthropic',
  path: () => '/v1/messages',

  lastUserText: (body) => contentText(lastUser(body.messages)?.content, ['text']),

  /** `system` is a string or a list of text blocks: the memories are appended to either. */
  inject(body, context) {
    if (Array.isArray(body.system))
      return { ...body, system: [...asArray(body.system), { type: 'text', text: context }] };
    return { ...body, system: appended(body.system, context) };
  },

  reader() {
    const acc = new Accumulator();
    const usage = (u: unknown) => {
      const x = asObject(u);
      acc.tokens(inputTokens(x), count(x.output_tokens));
    };
    return {
      whole(body) {
        const b = asObject(body);
        usage(b.usage);
        acc.add(contentText(asArray(b.content), ['text']));
      },
      event(data, name) {
        const e = asObject(data);
        const type = name ?? (e.type as string | undefined);
        if (type === 'message_start') usage(asObject(e.message).usage);
        else if (type === 'message_delta') usage(e.usage);
        else if (type === 'content_block_delta') {
          const delta = asObject(e.delta);
          if (delta.type === 'text_delta') acc.add(delta.text);
        }
      },
      result: () => acc.result(),
    };
  },
};
