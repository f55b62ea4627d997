/**
 * The types every provider description fills in (providers.ts lists them), and tolerant
 * readers of the untyped JSON the providers send and receive.
 */
export type ProviderName = 'openai' | 'anthropic' | 'google';
export const PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic', 'google'];

/** The proxied operations, one per route. */
export type Operation = 'chat' | 'responses' | 'messages' | 'generate' | 'stream_generate';

export type Body = Record<string, unknown>;

export interface Usage {
  input: number;
  output: number;
}

/** Reads an answer as it passes: its tokens and the assistant's text. */
export interface AnswerReader {
  /** A whole JSON answer (Google's streamed JSON array: each of its elements). */
  whole(body: unknown): void;
  /** One server-sent event: its `event:` name (if any) and its JSON data. */
  event(data: unknown, name: string | undefined): void;
  result(): { usage: Usage; text: string };
}

/** One operation of one provider. */
export interface OperationSpec {
  provider: ProviderName;
  /** The path under the provider's base URL (the model is Google's path parameter). */
  path(model: string | undefined): string;
  /** The text of the last user message, or '' (nothing to search memories for). */
  lastUserText(body: Body): string;
  /** A copy of `body` with `context` added in the provider's own place for instructions. */
  inject(body: Body, context: string): Body;
  /** Changes the proxy makes to every forwarded body (OpenAI streams: ask for the usage chunk). */
  prepare?(body: Body): Body;
  reader(): AnswerReader;
}

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
export const asObject = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A token count: a finite non-negative number, else 0. */
export const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/** The texts of a message's content: a string, or parts whose type is one of `types` (their `text`). */
export function contentText(content: unknown, types: readonly string[]): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((p) => asObject(p))
    .filter((p) => typeof p.text === 'string' && (p.type === undefined || types.includes(p.type as string)))
    .map((p) => p.text as string)
    .join('\n');
}

/** The last element of `items` whose role is `user` (or, with `roleless`, has no role). */
export function lastUser(items: unknown, roleless = false): Record<string, unknown> | undefined {
  const list = asArray(items);
  for (let i = list.length - 1; i >= 0; i--) {
    const m = asObject(list[i]);
    if (m.role === 'user' || (roleless && m.role === undefined)) return m;
  }
  return undefined;
}

/** How much assistant text is kept while reading (what is stored is cut to the content limit anyway). */
const MAX_TEXT = 1_000_000;

/** Appends text up to MAX_TEXT; keeps the largest token counts seen (streams report running totals). */
export class Accumulator {
  private parts: string[] = [];
  private length = 0;
  readonly usage: Usage = { input: 0, output: 0 };

  add(text: unknown): void {
    if (typeof text !== 'string' || !text || this.length >= MAX_TEXT) return;
    this.parts.push(text);
    this.length += text.length;
  }

  tokens(input: number, output: number): void {
    this.usage.input = Math.max(this.usage.input, input);
    this.usage.output = Math.max(this.usage.output, output);
  }

  /** Replace the text (a final event that carries the whole answer). */
  replace(text: string): void {
    this.parts = [text];
    this.length = text.length;
  }

  result(): { usage: Usage; text: string } {
    return { usage: { ...this.usage }, text: this.parts.join('').slice(0, MAX_TEXT) };
  }
}

/** `base` then "\n\n" then `extra` (or `extra` alone). */
export const appended = (base: unknown, extra: string) =>
  typeof base === 'string' && base.trim() ? `${base}\n\n${extra}` : extra;
