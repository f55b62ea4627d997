/**
 * POST /v1/graph/transform and POST /v1/graph/rerank: artifacts made and scored by one code path
 * (transformer.ts, score.ts), domains resolved for the caller's organization, and every
 * transform counted into its domain's catalog.
 */
import type { Db, Queryable } from '../../platform/db/index.ts';
import { requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { fromWire, isComplete, toWire, type Artifact } from './artifact.ts';
import type { Domain } from './bands.ts';
import { byBandName } from './domains.validate.ts';
import { rankArtifacts, type RerankOptions } from './rerank.ts';
import { routingOf } from './routing.ts';
import type { DocumentInput, RerankBody, TransformBody } from './transform.schemas.ts';
import type { Transformer } from './transformer.ts';

/** What the service needs of the domains part. */
export interface DomainPort {
  resolve(actor: Actor, domainId: string | undefined): Promise<Domain>;
  /** Count a transform's band values into the domain's catalog (queues a refresh when due). */
  observe(q: Queryable, organizationId: string, domainId: string, signals: Record<string, string>): Promise<unknown>;
}

export interface TransformServiceDeps {
  db: Db;
  transformer: Transformer;
  domains: DomainPort;
}

const span = (a: number, b: number) => Math.round((b - a) * 100) / 100;
const ms = (t0: number) => span(t0, performance.now());

export function createTransformService(deps: TransformServiceDeps) {
  const { transformer } = deps;

  /** Catalog bookkeeping must not fail a transform that succeeded: it is counted best-effort. */
  async function observe(actor: Actor, domain: Domain, artifacts: Artifact[]) {
    for (const a of artifacts)
      await deps.domains.observe(deps.db, actor.organizationId, domain.domain_id, a.signals).catch(() => undefined);
  }

  /**
   * Documents to artifacts: complete ones checked and read, the rest computed in one batch;
   * `transformed` counts the computed ones (usage).
   */
  async function documentArtifacts(
    domain: Domain,
    docs: (string | DocumentInput)[],
    signalEmbedder: string | undefined,
  ): Promise<{ artifacts: Artifact[]; transformed: number }> {
    const sig = transformer.signalEmbedder(signalEmbedder);
    const widths = { base: transformer.baseDimensions, band: sig.dimensions, signalEmbedder: sig.name };
    const out = new Array<Artifact>(docs.length);
    const todo: { i: number; text: string; embedding?: number[] }[] = [];
    const vectorOnly: { i: number; embedding: number[] }[] = [];
    docs.forEach((d, i) => {
      const doc = typeof d === 'string' ? { text: d } : d;
      if (isComplete(doc, domain)) out[i] = fromWire(doc, domain, widths, `documents[${i}]`);
      else if (doc.text !== undefined)
        todo.push({ i, text: doc.text, embedding: doc.embedding?.length ? doc.embedding : undefined });
      // The client allows an embedding without text: every band is then the whole text's
      // vector, which sbert derives from the base embedding (qwen would need the text).
      else if (doc.embedding?.length && sig.fromBase) vectorOnly.push({ i, embedding: doc.embedding });
      else
        throw new AppError(
          422,
          `documents[${i}] needs text, or an embedding (signal_embedder sbert), or a complete artifact`,
          {
            field: `documents[${i}]`,
          },
        );
    });
    const made = todo.length ? await transformer.transform(domain, todo, { signalEmbedder, field: 'documents' }) : [];
    todo.forEach((t, j) => (out[t.i] = made[j]));
    const bare = vectorOnly.length
      ? await transformer.transform(
          domain,
          vectorOnly.map((v) => ({ text: '', embedding: v.embedding })),
          { signalEmbedder, field: 'documents', values: vectorOnly.map(() => ({})) },
        )
      : [];
    vectorOnly.forEach((v, j) => (out[v.i] = bare[j]));
    return { artifacts: out, transformed: todo.length + vectorOnly.length };
  }

  return {
    async transform(actor: Actor, body: TransformBody) {
      requirePermission(actor, 'read');
      const t0 = performance.now();
      const domain = await deps.domains.resolve(actor, body.domain_id);
      const items =
        body.items ?? (body.texts ?? [body.text!]).map((text) => ({ text, embedding: undefined, metadata: undefined }));
      if (body.text !== undefined) items[0].embedding = body.embedding;
      const artifacts = await transformer.transform(domain, items, {
        signalEmbedder: body.signal_embedder,
        field: body.items ? 'items' : undefined,
      });
      await observe(actor, domain, artifacts);
      const timing = { total_ms: ms(t0), per_text_ms: ms(t0) / items.length };
      const wire = artifacts.map((a, i) =>
        toWire(a, domain, {
          id: newId(),
          meta: {
            ...(body.metadata ?? {}),
            ...(items[i].metadata ?? {}),
            timing_ms: timing,
            signal_embedder: a.signalEmbedder,
            band_extractor: transformer.bandsId,
          },
          rot: body.return_rot_v3,
          concat: body.return_concat,
        }),
      );
      return body.text !== undefined
        ? wire[0]
        : { artifacts: wire, meta: { ...(body.metadata ?? {}), count: wire.length, timing_ms: timing } };
    },

    async rerank(actor: Actor, body: RerankBody) {
      requirePermission(actor, 'read');
      const t0 = performance.now();
      const domain = await deps.domains.resolve(actor, body.domain_id);
      const q = typeof body.query === 'string' ? { text: body.query } : body.query;
      const sig = transformer.signalEmbedder(body.signal_embedder);
      const widths = { base: transformer.baseDimensions, band: sig.dimensions, signalEmbedder: sig.name };
      const query = isComplete(q, domain)
        ? fromWire(q, domain, widths, 'query')
        : (
            await transformer.transform(
              domain,
              [{ text: q.text, embedding: q.embedding?.length ? q.embedding : undefined }],
              { signalEmbedder: body.signal_embedder, mode: 'query' },
            )
          )[0];
      const tq = performance.now();
      const docs = await documentArtifacts(domain, body.documents, body.signal_embedder);
      const td = performance.now();
      const routing = routingOf(domain, body.routing_config);
      const options: RerankOptions = {
        method: body.method,
        topK: body.top_k,
        signalFilters: {
          ...routing.filters,
          ...byBandName(domain.signals, body.signal_filters ?? {}, 'signal_filters'),
        },
        signalMultipliers: body.signal_multipliers,
        texts: body.documents.map((d) => (typeof d === 'string' ? d : (d.text ?? ''))),
        queryText: q.text,
      };
      const ranked = rankArtifacts(domain, query, docs.artifacts, options);
      const names = domain.signals.map((s) => s.name);
      return {
        id: newId(),
        meta: {
          domain_id: domain.domain_id,
          method_used: ranked.method,
          billed_units: body.documents.length,
          timing_ms: { query_ms: span(t0, tq), documents_ms: span(tq, td), score_ms: ms(td), total_ms: ms(t0) },
          usage: { documents: body.documents.length, transformed: docs.transformed, signal_embedder: sig.name },
          ...(Object.keys(routing.filters).length || routing.ignored.length ? { routing } : {}),
          ...(body.return_debug ? { debug: { weights: ranked.weights, band_names: names } } : {}),
        },
        results: ranked.results.map((r) => {
          const d = body.documents[r.index];
          const doc = typeof d === 'string' ? { text: d } : d;
          const bandScores = Object.fromEntries(names.map((n, k) => [n, r.score.bands[k]]));
          return {
            index: r.index,
            relevance_score: r.relevance,
            ...(doc.id ? { id: doc.id } : {}),
            score_method: ranked.method,
            ...(body.return_documents
              ? { document: { ...doc, embedding: undefined, signal_embeddings: undefined } }
              : {}),
            ...(body.return_signal_scores ? { signal_scores: bandScores, signal_scores_by_band: bandScores } : {}),
            ...(body.return_debug
              ? { debug_scores: { base: r.score.base, enhanced: r.score.enhanced, fast: r.score.fast, ...r.extra } }
              : {}),
          };
        }),
      };
    },
  };
}

export type TransformService = ReturnType<typeof createTransformService>;
