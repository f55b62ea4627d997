/**
 * The tokenizer side of the ONNX sentence adapter (onnx-sentence.ts): tokenizer.json and
 * tokenizer_config.json read with @huggingface/tokenizers (pure JS), and truncation that keeps
 * the special tokens, as the Python tokenizers sentence-transformers uses do.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { EmbedderError } from './embedder.ts';

/**
 * The part of @huggingface/tokenizers' `Tokenizer` used here. Declared locally: the package's
 * .d.ts files use extension-less relative imports, which do not resolve under NodeNext.
 */
interface Tokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
  token_to_id(token: string): number | undefined;
}
type TokenizerModule = { Tokenizer: new (tokenizerJson: object, tokenizerConfig: object) => Tokenizer };

export interface LoadedTokenizer {
  tokenizer: Tokenizer;
  /** Id written at padded positions (the attention mask hides them). */
  padId: number;
  /** Tokens the post-processor adds to every text (2 for BERT: [CLS], [SEP]). */
  specialCount: number;
}

/**
 * Token ids with the model's special tokens, at most `maxLength` of them: a longer text loses
 * word pieces from its end, while the tokens the post-processor adds around it ([CLS] … [SEP])
 * stay, as the Python tokenizers sentence-transformers uses do.
 */
export function encodeTruncated({ tokenizer }: LoadedTokenizer, text: string, maxLength: number): number[] {
  const ids = tokenizer.encode(text).ids;
  if (ids.length <= maxLength) return ids;
  const body = tokenizer.encode(text, { add_special_tokens: false }).ids;
  const added = ids.length - body.length;
  // Where the text's own tokens start among the ids (after [CLS] for BERT).
  for (let start = 0; start <= added; start++) {
    if (body.every((id, k) => ids[start + k] === id)) {
      const keep = Math.max(0, maxLength - added);
      return [...ids.slice(0, start), ...body.slice(0, keep), ...ids.slice(start + body.length)];
    }
  }
  return ids.slice(0, maxLength); // a post-processor that rewrites the text's tokens: plain cut
}

export async function loadTokenizerFiles(modelDir: string): Promise<LoadedTokenizer> {
  // Read first, so a missing file is named in the error before anything else is tried.
  const [json, config] = await Promise.all([
    readJson(path.join(modelDir, 'tokenizer.json')),
    readJson(path.join(modelDir, 'tokenizer_config.json')),
  ]);
  const { Tokenizer } = await importPackage(
    async () => (await import('@huggingface/tokenizers')) as unknown as TokenizerModule,
    '@huggingface/tokenizers',
  );
  const tokenizer = new Tokenizer(json, config);
  const pad = specialToken(config, 'pad_token') ?? specialToken(config, 'eos_token');
  return {
    tokenizer,
    padId: (pad === undefined ? undefined : tokenizer.token_to_id(pad)) ?? 0,
    specialCount: tokenizer.encode('').ids.length,
  };
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
}

/** A special token from tokenizer_config.json: a string or an AddedToken object. */
function specialToken(config: Record<string, unknown>, key: string): string | undefined {
  const value = config[key];
  if (typeof value === 'string' && value) return value;
  if (value && typeof value === 'object' && typeof (value as { content?: unknown }).content === 'string') {
    return (value as { content: string }).content;
  }
  return undefined;
}

/** Import a package on first use; a failure is a `runtime_missing` EmbedderError naming it. */
export async function importPackage<T>(load: () => Promise<T>, name: string): Promise<T> {
  try {
    return await load();
  } catch (err) {
    throw new EmbedderError(
      'runtime_missing',
      `Cannot load ${name}` +
        (name === 'onnxruntime-node' ? ` (native binary for ${process.platform}-${process.arch})` : '') +
        `: ${(err as Error).message}`,
      false,
      { cause: err },
    );
  }
}
