/**
 * The memory-processing step of policy.transform_embedding (`auto`: bands extracted, `manual`:
 * the caller's `signals` as band values): the artifact is made in the memory's job and stored
 * with its completion, so svc_enhanced and svc_max search score it without transforming
 * anything at query time. `none` (the default) costs nothing.
 */
import { ownerActor } from '../../shared/actor.ts';
import type { ProcessingStep } from '../memories/index.ts';
import type { DomainPort } from './transform.service.ts';
import { putMemoryArtifact } from './transform.store.ts';
import type { Transformer } from './transformer.ts';

interface TransformPolicy {
  mode?: string;
  domain_id?: string;
  signals?: Record<string, string>;
}

export function transformStep(deps: {
  transformer: Transformer;
  domains: Pick<DomainPort, 'resolve' | 'observe'>;
}): ProcessingStep {
  return {
    name: 'transform',
    async run(memory) {
      const policy = (memory.policy?.transform_embedding ?? {}) as TransformPolicy;
      if (policy.mode !== 'auto' && policy.mode !== 'manual') return;
      const actor = ownerActor(memory.organization_id, memory.user_id);
      // An unknown domain is a permanent failure of this step: another attempt finds the same.
      const domain = await deps.domains.resolve(actor, policy.domain_id).catch((err) => {
        throw Object.assign(err instanceof Error ? err : new Error(String(err)), { permanent: true });
      });
      const values =
        policy.mode === 'manual'
          ? [Object.fromEntries(domain.signals.map((s) => [s.name, String(policy.signals?.[s.name] ?? '')]))]
          : undefined;
      const [artifact] = await deps.transformer.transform(
        domain,
        [{ text: memory.content, createdAt: memory.occurred_at ?? memory.created_at }],
        { values },
      );
      return {
        async write(tx) {
          const bandExtractor = values ? 'manual' : deps.transformer.bandsId;
          await putMemoryArtifact(
            tx,
            { memoryId: memory.id, organizationId: memory.organization_id, bandExtractor },
            artifact,
          );
          // Memory transforms count toward the domain's catalog like API transforms (a rerun
          // after a crash counts once more: the catalog is statistics, not a ledger).
          await deps.domains.observe(tx, memory.organization_id, domain.domain_id, artifact.signals);
        },
      };
    },
  };
}
