/**
 * What a memory write may ask besides its content: who may read it (ACL), its policy (graph,
 * consent, risk, transform) and how it is kept true (dedupe, supersede; docs/truth.md).
 */
import { z } from 'zod';
import { graphPolicyFields, graphPolicyWire } from '../graph/index.ts';

const str = (max = 512) => z.string().max(max);

/**
 * Read and write lists of prefixed entities (`external_user:`, `user:`, `namespace:`, `organization:`,
 * `workspace:`, `role:`).
 */
export const aclConfig = z.object({
  read: z
    .array(str())
    .max(200)
    .optional()
    .describe(
      'Read list (at most 200): prefix:id entries with prefix external_user, user, namespace, organization, ' +
        'workspace or role; a bare id means external_user:<id>',
    ),
  write: z.array(str()).max(200).optional().describe('Write list (at most 200), entries as in read'),
});

export const transformEmbeddingPolicy = z
  .looseObject({
    mode: z.enum(['none', 'auto', 'manual']).optional().describe('none, auto or manual'),
    domain_id: str().optional().describe('Domain whose transform applies'),
    signals: z.record(z.string(), z.string()).optional().describe('Signal name → value'),
  })
  .describe(
    'Graph-transform embedding settings: auto or manual make a transform artifact in the memory’s ' +
      'background job (docs/transform.md), used by the svc_enhanced and svc_max search providers',
  );

const consent = z
  .enum(['explicit', 'implicit', 'terms', 'none'])
  .describe('Consent behind the memory (default implicit); none also turns graph extraction off');
export const risk = z
  .enum(['none', 'sensitive', 'flagged'])
  .describe('Risk of the content (default none); flagged memories are visible to their owner only');

/** `policy` (current unified form): graph, access, consent, risk and transform in one object. */
export const memoryAddPolicy = z
  .looseObject({
    transform_embedding: transformEmbeddingPolicy.optional(),
    graph: graphPolicyWire.optional(),
    consent: consent.optional(),
    risk: risk.optional(),
    acl: aclConfig.optional().describe('Who may read and change the memory (default: its owner only)'),
  })
  .describe('The memory policy, current form; its fields win over memory_policy and graph_generation');

/** `memory_policy` (replaces graph_generation): the graph policy's keys, plus access, consent and risk. */
export const memoryPolicy = z
  .looseObject({
    mode: z
      .enum(['auto', 'manual', 'structured'])
      .optional()
      .describe('auto: extract the graph; manual (alias structured): exactly the given nodes'),
    ...graphPolicyFields,
    acl: aclConfig.optional().describe('Who may read and change the memory (policy.acl wins)'),
    consent: consent.optional(),
    risk: risk.optional(),
  })
  .describe('How the memory is built into the graph, who may read and change it, consent and risk');

export const dedupeMode = z
  .enum(['near', 'exact', 'off'])
  .describe(
    'Engram extension: near (default, MEMORY_DEDUPE): an exact duplicate of a current memory of the same user and ' +
      'namespace is not stored (the answer names the existing memory, duplicate: true) and a near duplicate is ' +
      'linked ' +
      'to it (search shows one); exact: only exact duplicates; off: store as sent (docs/truth.md)',
  );
export const supersedeMode = z
  .enum(['auto', 'off'])
  .describe(
    'Engram extension: auto (default, MEMORY_SUPERSEDE): a memory that gives a new value of a single-valued fact of ' +
      'the same user (city, employer, role, diet, partner, a favourite …) supersedes the older memories that stated ' +
      'it; off: it supersedes nothing (docs/truth.md)',
  );
