/**
 * The transform module's side of the svc_enhanced / svc_max search providers: artifact scores
 * of a search's candidates. Memories written with policy.transform_embedding have stored
 * artifacts; the others are transformed now (and not stored: a search does not write).
 */
import type { Db } from '../../platform/db/index.ts';
import type { Actor } from '../../shared/actor.ts';
import type { Artifact } from './artifact.ts';
import { rankArtifacts } from './rerank.ts';
import type { DomainPort } from './transform.service.ts';
import { memoryArtifacts } from './transform.store.ts';
import type { Transformer } from './transformer.ts';

export function graphRerankPort(deps: { db: Db; transformer: Transformer; domains: Pick<DomainPort, 'resolve'> }) {
  return {
    async checkDomain(actor: Actor, domainId?: string) {
      await deps.domains.resolve(actor, domainId);
    },
    async scoreMemories(
      actor: Actor,
      query: string,
      candidates: { id: string; content: string }[],
      opts: {
        domainId?: string;
        signalThresholds?: Record<string, number>;
        signalMultipliers?: Record<string, unknown>;
      },
    ) {
      const domain = await deps.domains.resolve(actor, opts.domainId);
      const [q] = await deps.transformer.transform(domain, [{ text: query }], { mode: 'query' });
      const stored = await memoryArtifacts(
        deps.db,
        actor.organizationId,
        candidates.map((c) => c.id),
      );
      const width = q.bands[0].q.length;
      // A stored artifact serves when it was made for this domain by the same embedders (its base
      // and bands have the query's widths); one from before an embedder or domain change is made
      // again, never scored across widths.
      const usable = (a: Artifact | undefined) =>
        a &&
        a.domainId === q.domainId &&
        a.signalEmbedder === q.signalEmbedder &&
        a.base.q.length === q.base.q.length &&
        a.bands.length === q.bands.length &&
        a.bands[0].q.length === width;
      const todo = candidates.filter((c) => !usable(stored.get(c.id)));
      const made = todo.length
        ? await deps.transformer.transform(
            domain,
            todo.map((c) => ({ text: c.content })),
          )
        : [];
      const artifacts = new Map<string, Artifact>(candidates.map((c) => [c.id, stored.get(c.id)!]));
      todo.forEach((c, i) => artifacts.set(c.id, made[i]));
      const docs = candidates.map((c) => artifacts.get(c.id)!);
      // The rerank endpoint's checks and filters, so both paths treat thresholds alike.
      const kept = rankArtifacts(domain, q, docs, {
        signalFilters: opts.signalThresholds,
        signalMultipliers: opts.signalMultipliers,
      });
      return new Map(
        kept.results.map((r) => [
          candidates[r.index].id,
          { base: r.score.base, enhanced: r.score.enhanced, bands: r.score.bands },
        ]),
      );
    },
  };
}
