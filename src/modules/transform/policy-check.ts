/**
 * The write-time check of `policy.transform_embedding` (and its deprecated forms, mapped by the
 * memories module): a memory asking for an artifact in a domain that does not exist for its
 * writer, or naming bands the domain does not have, is the writer's 422 at the request, not a
 * memory whose background job fails later.
 */
import type { Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import { byBandName, fieldError } from './domains.validate.ts';
import type { DomainPort } from './transform.service.ts';

interface TransformPolicy {
  mode?: string;
  domain_id?: string;
  signals?: Record<string, string>;
}

export function transformPolicyCheck(domains: Pick<DomainPort, 'resolve'>) {
  return async function check(actor: Actor, policy: unknown): Promise<void> {
    const p = (policy ?? {}) as TransformPolicy;
    if (p.mode !== 'auto' && p.mode !== 'manual') return;
    const field = 'policy.transform_embedding';
    const domain = await domains.resolve(actor, p.domain_id).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 404)
        throw fieldError(`${field}.domain_id`, `no graph domain "${p.domain_id}" (GET /v1/graph/domains lists them)`);
      throw err;
    });
    if (p.mode === 'manual') byBandName(domain.signals, p.signals ?? {}, `${field}.signals`);
  };
}
