/**
 * Band extraction by any OpenAI-compatible chat model (BAND_EXTRACTOR=llm; docs/transform.md):
 * one call per text, the reply constrained by a JSON schema built from the domain's bands (an
 * enum band may only take its allowed values, every band is required, '' means "nothing"),
 * checked and repaired once by the shared chat client (openai-chat.ts).
 */
import { z } from 'zod';
import { BandError, clipBand, type BandExtractor, type BandInput, type BandValues } from './bands.ts';
import { chatJsonClient, parseJsonReply, type ChatJsonOptions, type ChatMessage } from './openai-chat.ts';

const SYSTEM =
  'You read one text and fill signal bands: for each band, what the text says for it, following the ' +
  "band's instruction. Be short: a phrase or one sentence, at most 300 characters. Copy names, numbers " +
  "and identifiers exactly. Use '' when the text holds nothing for a band. For an enum band answer one " +
  'of its allowed values. For several values, separate them with "; ". Reply with one JSON object only.';

function messages(input: BandInput): ChatMessage[] {
  const bands = input.bands
    .map(
      (b) =>
        `- ${b.name} (${b.type}${b.allowed_values?.length ? `: one of ${b.allowed_values.join(', ')}` : ''}): ` +
        b.description,
    )
    .join('\n');
  const domain = input.domain ? `Domain: ${input.domain.id}: ${input.domain.description}\n\n` : '';
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `${domain}Bands:\n${bands}\n\nText:\n${input.text.slice(0, 12_000)}` },
  ];
}

function schemas(input: BandInput) {
  const properties: Record<string, object> = {};
  const shape: Record<string, z.ZodType<string>> = {};
  for (const b of input.bands) {
    const values = b.type === 'enum' && b.allowed_values?.length ? b.allowed_values : undefined;
    properties[b.name] = values ? { type: 'string', enum: values } : { type: 'string' };
    // Numbers and booleans come back as text: the artifact's bands are texts.
    shape[b.name] = values
      ? z.enum(values as [string, ...string[]])
      : z.union([z.string(), z.number(), z.boolean()]).transform(String);
  }
  const json = { type: 'object', properties, required: input.bands.map((b) => b.name), additionalProperties: false };
  return { json, zod: z.object(shape) };
}

export function createLlmBandExtractor(options: ChatJsonOptions): BandExtractor {
  const chat = chatJsonClient(
    options,
    'signal_bands',
    (code, message, retryable, o) => new BandError(code, message, retryable, o),
  );
  return {
    id: `bands-llm:${options.model}`,
    async extract(inputs) {
      const out: BandValues[] = [];
      for (const input of inputs) {
        const { json, zod } = schemas(input);
        const reply = await chat.ask(messages(input), json, parseJsonReply(zod));
        out.push(Object.fromEntries(input.bands.map((b) => [b.name, clipBand(String(reply[b.name] ?? ''))])));
      }
      return out;
    },
  };
}
