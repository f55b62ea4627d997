/**
 * Google's Gemini API (`/models/{model}:generateContent` and `:streamGenerateContent` under a
 * base URL that ends in the API version, e.g. https://generativelanguage.googleapis.com/v1beta).
 * Memories go into `systemInstruction` (or `system_instruction`, whichever the caller used);
 * tokens are `usageMetadata.promptTokenCount` and `candidatesTokenCount` plus
 * `thoughtsTokenCount` (thinking is billed as output), running totals in a stream.
 */
import { Accumulator, asArray, asObject, count, lastUser, type Body, type OperationSpec } from './provider-kit.ts';

/** The visible text of a content's parts (thought summaries left out). */
function partsText(content: unknown): string {
  return asArray(asObject(content).parts)
    .map((p) => asObject(p))
    .filter((p) => typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text as string)
    .join('');
}

/** Both spellings are accepted by Google; the one the caller used is kept. */
const SYSTEM_KEYS = ['systemInstruction', 'system_instruction'] as const;

function inject(body: Body, context: string): Body {
  const key = SYSTEM_KEYS.find((k) => body[k] !== undefined) ?? 'systemInstruction';
  const current = body[key];
  const parts = typeof current === 'string' ? [{ text: current }] : asArray(asObject(current).parts);
  return { ...body, [key]: { ...asObject(current), parts: [...parts, { text: context }] } };
}

/** `suffix` is the method after the model id: `:generateContent` or `:streamGenerateContent`. */
export function google(suffix: string): OperationSpec {
  return {
    provider: 'google',
    path: (model) => `/models/${encodeURIComponent(model ?? '')}${suffix}`,
    // A content without a role is the user's (single-turn requests often leave it out).
    lastUserText: (body) => partsText(lastUser(body.contents, true)),
    inject,

    reader() {
      const acc = new Accumulator();
      // A whole answer and each element (or event) of a stream have the same shape.
      const read = (data: unknown) => {
        const d = asObject(data);
        const u = asObject(d.usageMetadata);
        acc.tokens(count(u.promptTokenCount), count(u.candidatesTokenCount) + count(u.thoughtsTokenCount));
        acc.add(partsText(asObject(asArray(d.candidates)[0]).content));
      };
      return { whole: read, event: read, result: () => acc.result() };
    },
  };
}
