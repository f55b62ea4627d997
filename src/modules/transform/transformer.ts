/**
 * Text → artifact: the one code path behind POST /v1/graph/transform, rerank of plain texts,
 * and the artifacts memory writes store (policy.transform_embedding). Steps (docs/transform.md):
 * base embedding (the caller's, or the primary embedder's) → band values (the band extractor)
 * → one signal-embedder call for every non-empty band text of the batch → an empty band takes
 * the whole text's signal vector → int8, phases (artifact.ts).
 */
import type { BandExtractor, BandValues } from '../../platform/models/bands.ts';
import type { Embedder } from '../../platform/models/embedder.ts';
import { AppError } from '../../shared/errors.ts';
import { makeArtifact, type Artifact } from './artifact.ts';
import { ROLE_FAMILIES, type Domain } from './bands.ts';
import { project } from './vectors.ts';

/** The spec's width of `sbert` band vectors. */
export const SBERT_DIMENSIONS = 384;

export interface SignalEmbedder {
  name: 'sbert' | 'qwen';
  dimensions: number;
  embed(texts: string[]): Promise<number[][]>;
  /** The whole text's vector from its base embedding, when this embedder is a view of the base one. */
  fromBase?(base: ArrayLike<number>): number[];
}

/**
 * `sbert`: the primary (local) embedder's vectors projected to 384 dimensions (vectors.ts
 * project; unchanged when the model is 384 wide already, e.g. an all-MiniLM-L6-v2 ONNX model).
 */
export function sbertFrom(primary: Embedder): SignalEmbedder {
  const to384 = (v: ArrayLike<number>) => Array.from(project(v, SBERT_DIMENSIONS));
  return {
    name: 'sbert',
    dimensions: SBERT_DIMENSIONS,
    embed: async (texts) => (await primary.embed(texts)).map(to384),
    fromBase: to384,
  };
}

/** `qwen`: a hosted (OpenAI-compatible) embedder at its own width. */
export function qwenFrom(embedder: Embedder): SignalEmbedder {
  return { name: 'qwen', dimensions: embedder.dimensions, embed: (t) => embedder.embed(t) };
}

export interface TransformerDeps {
  base: Embedder;
  signals: { sbert: SignalEmbedder; qwen?: SignalEmbedder };
  bands: BandExtractor;
}

export interface TransformInput {
  text: string;
  /** A caller-provided base embedding (checked for width). */
  embedding?: number[];
  createdAt?: Date;
}

export type Transformer = ReturnType<typeof createTransformer>;

export function createTransformer(deps: TransformerDeps) {
  function signalEmbedder(name: string | undefined): SignalEmbedder {
    const chosen = (name ?? 'sbert') === 'sbert' ? deps.signals.sbert : name === 'qwen' ? deps.signals.qwen : undefined;
    if (!chosen) {
      throw new AppError(
        422,
        name === 'qwen'
          ? 'signal_embedder "qwen" needs a hosted embedder: set EMBEDDINGS_URL, EMBEDDINGS_MODEL and ' +
              'EMBEDDINGS_DIMENSIONS (docs/transform.md)'
          : `Unknown signal_embedder "${name}"; use "sbert" or "qwen"`,
        { field: 'signal_embedder' },
      );
    }
    return chosen;
  }

  return {
    baseDimensions: deps.base.dimensions,
    bandsId: deps.bands.id,
    signalEmbedder,

    /**
     * Artifacts of `items` in `domain`. `query` mode extracts no bands: a query asks about a
     * text rather than having its structure, so each of its bands is the whole query, and a
     * document band is scored by how well it answers the query.
     */
    async transform(
      domain: Domain,
      items: TransformInput[],
      opts: {
        signalEmbedder?: string;
        mode?: 'document' | 'query';
        field?: string;
        /** Band values given by the caller (policy.transform_embedding manual): no extraction. */
        values?: BandValues[];
      } = {},
    ): Promise<Artifact[]> {
      const sig = signalEmbedder(opts.signalEmbedder);
      items.forEach((it, i) => {
        if (it.embedding && it.embedding.length !== deps.base.dimensions)
          throw new AppError(
            422,
            `embedding has ${it.embedding.length} dimensions; ` +
              `this deployment's base embedding has ${deps.base.dimensions} (${deps.base.id})`,
            { field: opts.field ? `${opts.field}[${i}].embedding` : 'embedding', expected: deps.base.dimensions },
          );
      });
      const missing = items.map((it, i) => (it.embedding ? -1 : i)).filter((i) => i >= 0);
      const computed = missing.length ? await deps.base.embed(missing.map((i) => items[i].text)) : [];
      const bases = items.map((it) => it.embedding ?? []);
      missing.forEach((i, j) => (bases[i] = computed[j]));

      const specs = domain.signals.map((s, k) => ({ ...s, role: ROLE_FAMILIES[k] }));
      const values: BandValues[] =
        opts.values ??
        (opts.mode === 'query'
          ? items.map(() => ({}))
          : await deps.bands.extract(
              items.map((it) => ({
                text: it.text,
                bands: specs,
                createdAt: it.createdAt,
                domain: { id: domain.domain_id, description: domain.description },
              })),
            ));

      // One call for every distinct band text of the batch, and the whole texts the
      // embedder cannot derive from the base vectors.
      const wanted = new Set<string>();
      values.forEach((v) => domain.signals.forEach((s) => v[s.name] && wanted.add(v[s.name])));
      if (!sig.fromBase) items.forEach((it) => wanted.add(it.text));
      const list = [...wanted];
      const vecs = list.length ? await sig.embed(list) : [];
      const byText = new Map(list.map((t, i) => [t, vecs[i]]));

      return items.map((it, i) => {
        const whole = sig.fromBase ? sig.fromBase(bases[i]) : byText.get(it.text)!;
        const signals = Object.fromEntries(domain.signals.map((s) => [s.name, values[i][s.name] ?? '']));
        const bands = domain.signals.map((s) => (signals[s.name] ? byText.get(signals[s.name])! : whole));
        return makeArtifact(domain, signals, bases[i], bands, sig.name);
      });
    },
  };
}
