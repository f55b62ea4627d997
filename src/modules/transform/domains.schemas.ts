import { z } from 'zod';
import { FREQUENCIES, SIGNAL_TYPES } from './bands.ts';

const bandName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a band name is a snake_case identifier (letters, digits, _)')
  .describe('Band name (snake_case), unique in the domain: the key of `signals` in an artifact');

/** SignalField as a caller sends it (client contract). */
export const signalFieldInput = z.object({
  name: bandName,
  description: z.string().trim().min(1).max(2000).describe('The extraction instruction for this band'),
  type: z.enum(SIGNAL_TYPES).optional().describe('Value type of the band. Default: text'),
  allowed_values: z
    .array(z.string().trim().min(1).max(200).describe('An allowed value'))
    .max(100)
    .optional()
    .describe('Required for type enum: the values the band may take'),
  frequency_hz: z
    .number()
    .optional()
    .describe(
      `One of ${FREQUENCIES.join(', ')} Hz, each used once in a domain. Signals without one take the free ` +
        'frequencies low to high, in the order given',
    ),
  required: z.boolean().optional().describe('The extractor should always fill this band. Default: false'),
  weight: z.number().positive().max(100).optional().describe('Share of the band in scores (> 0). Default: 1'),
});

const multipliers = z
  .record(
    z.string().trim().min(1).max(64).describe('A band of the domain (or its frequency, e.g. "19")'),
    z.number().min(0).max(100),
  )
  .describe('Band name → score multiplier (≥ 0; 0 switches a band off). Names must be bands of the domain');

const catalogConfigInput = z
  .object({
    enabled: z.boolean().optional().describe('Count transforms into the catalog. Default: true'),
    refresh_every_n: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe('Refresh the catalog after this many new transforms; 0 = only on request. Default: 100'),
  })
  .describe('Catalog settings');

/** RoutingConfig (client contract): the known keys are typed, others are kept as given. */
const routingConfig = z
  .looseObject({
    caesar4_source: z.string().max(100).optional().describe('Ranking exposed to the routing rules'),
    enhanced_initial_source: z.string().max(100).optional().describe('Initial source of the enhanced path'),
    ce_gate_min_phi: z.number().optional().describe('Minimum phi for the cross-encoder gate'),
    egr_lambda_ce: z.number().min(0).max(1).optional().describe('Entailment fusion weight (0–1)'),
    disabled_rules: z.array(z.string().max(200)).max(100).optional().describe('Routing rules to skip'),
    enabled_rule_packs: z.array(z.string().max(200)).max(100).optional().describe('Rule packs to run'),
    holographic_floor: z.boolean().optional().describe('Never rank worse than the baseline'),
    threshold_overrides: z.record(z.string().max(200), z.number()).optional().describe('Threshold name → value'),
  })
  .describe('Routing overrides used by rerank for this domain (stored as given)');

const signalList = z.array(signalFieldInput).min(1).max(14);

/** POST /v1/graph/domains (client `graph.domains.create`). */
export const createDomainBody = z.object({
  // The form is checked by the service, after the built-ins' ids: naming a built-in is a 409, not a 422.
  domain_id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('Unique id, <name>:<domain>:<version>, [A-Za-z0-9_.-] in each part (e.g. acme:support:1.0.0)'),
  name: z.string().trim().min(1).max(200).describe('Display name'),
  description: z.string().trim().max(2000).default('').describe('What texts the domain is for'),
  signals: signalList
    .optional()
    .describe('1–14 bands; frequencies left free are completed with the bands of `general`'),
  fields: signalList.optional().describe('Former name of signals'),
  signal_multipliers: multipliers.optional(),
  catalog_config: catalogConfigInput.optional(),
  routing_config: routingConfig.optional(),
});
export type CreateDomainBody = z.infer<typeof createDomainBody>;

/** PUT /v1/graph/domains/{domain_id}: absent fields stay; signals may only be repeated unchanged. */
export const updateDomainBody = z.object({
  name: z.string().trim().min(1).max(200).optional().describe('Display name'),
  description: z.string().trim().max(2000).optional().describe('What texts the domain is for'),
  signal_multipliers: multipliers.optional().describe('Replaces the whole map; {} clears it'),
  catalog_config: catalogConfigInput.optional().describe('Merged into the stored settings'),
  routing_config: routingConfig.optional().describe('Replaces the stored routing overrides'),
  signals: signalList.optional().describe('Bands cannot change: accepted only when identical to the stored ones'),
  fields: signalList.optional().describe('Former name of signals'),
});
export type UpdateDomainBody = z.infer<typeof updateDomainBody>;

export const domainIdParams = z.object({
  domain_id: z
    .string()
    .min(1)
    .max(300)
    .describe('A built-in short name (scifact), a full id <name>:<short>:<version>, or a custom domain id'),
});

const signalField = z.object({
  name: z.string().describe('Band name, unique in the domain'),
  description: z.string().describe('The extraction instruction'),
  type: z.enum(SIGNAL_TYPES).describe('Value type'),
  allowed_values: z.array(z.string().describe('Allowed value')).optional().describe('Values of an enum band'),
  frequency_hz: z.number().describe('The band frequency (its role family)'),
  required: z.boolean().describe('The extractor should always fill it'),
  weight: z.number().describe('Share of the band in scores'),
});

const cluster = z.object({
  label: z.string().describe('The most frequent form'),
  count: z.number().int().describe('Occurrences over all counted transforms'),
  members: z.array(z.string().describe('A value')).describe('Values grouped here (up to 20)'),
});

const counts = z.record(z.string(), z.number().int());

/** The catalog (what a domain's transforms contained), counted when refreshed. */
export const catalogView = z.object({
  total_documents: z.number().int().describe('Transforms counted'),
  domain_distribution: counts.describe('Value → count of the domain_prior band (0.1 Hz)'),
  signal_value_counts: z
    .record(z.string(), counts)
    .describe('Band → short value (≤ 60 chars, lowercased) → count; the top 50 per band'),
  entity_clusters: z.array(cluster).describe('Entity-type and identifier values grouped by a normalised key (top 25)'),
  relationship_patterns: z
    .array(cluster)
    .describe('"<source> —<relation>→ <target>" patterns from the role bands (top 25)'),
  last_refreshed: z.string().nullable().describe('When the catalog was last refreshed (ISO 8601), or null'),
  last_updated: z.string().nullable().describe('When a transform was last buffered (ISO 8601), or null'),
});

const bufferEntry = z.object({
  signals: z.record(z.string(), z.string()).describe('Band name → extracted value'),
  timestamp: z.string().describe('When the transform was buffered (ISO 8601)'),
});

/** Domain (client contract). */
export const domainResponse = z.object({
  domain_id: z.string().describe('Short name of a built-in, or the custom id'),
  name: z.string().describe('Display name'),
  description: z.string().describe('What texts the domain is for'),
  signals: z.array(signalField).describe('The 14 bands, one per frequency, low to high'),
  builtin: z.boolean().describe('Built-in (read-only) or custom'),
  signal_multipliers: z.record(z.string(), z.number()).describe('Band name → default score multiplier'),
  catalog_config: z
    .object({
      enabled: z.boolean().describe('Transforms are counted into the catalog'),
      refresh_every_n: z.number().int().describe('Refresh after this many new transforms (0: on request)'),
    })
    .describe('Catalog settings'),
  routing_config: z.record(z.string(), z.unknown()).describe('Routing overrides for rerank'),
  catalog: catalogView.optional().describe('The catalog (single-domain responses)'),
  catalog_buffer: z
    .array(bufferEntry)
    .optional()
    .describe('Transforms not yet counted, newest first (up to 20; single-domain responses)'),
  owner_user_id: z.string().nullable().describe('The user who registered it (null for built-ins)'),
  owner_organization_id: z.string().nullable().describe('The owning organization (null for built-ins)'),
  owner_namespace_id: z.string().nullable().describe('The namespace of the registering key, if any'),
  owner_workspace_id: z.string().nullable().describe('Always null (no workspaces here)'),
  created_at: z.string().optional().describe('Registration time (ISO 8601; custom domains)'),
});
export type DomainView = z.infer<typeof domainResponse>;

export const domainListResponse = z.object({
  domains: z.array(domainResponse).describe('Built-ins first, then the organization’s custom domains (oldest first)'),
});

export const deleteDomainResponse = z.object({
  deleted: z.literal(true).describe('true'),
  domain_id: z.string().describe('The deleted domain'),
});

export const catalogResponse = catalogView.extend({
  domain_id: z.string().describe('The domain'),
  catalog_buffer_size: z.number().int().describe('Transforms buffered and not yet counted (at most 1,000 kept)'),
  pending: z.number().int().describe('Transforms since the last refresh (including any dropped from the buffer)'),
  refresh_job_id: z.string().nullable().describe('The queued refresh job, if one is queued'),
});

export const refreshResponse = z.object({
  status: z.literal('queued').describe('queued'),
  job_id: z.string().describe('The refresh job (an already queued one is reused)'),
  domain_id: z.string().describe('The domain'),
});
