import { z } from 'zod';

export const createOrganizationBody = z.object({
  name: z.string().trim().min(1).max(200).describe('Organization name'),
});

// "default": the deployment's (MEMORY_DEDUPE, MEMORY_SUPERSEDE). Not null: request bodies read null as absent.
const dedupe = z
  .enum(['near', 'exact', 'off', 'default'])
  .describe("Duplicate folding for the organization's writes (docs/truth.md); default: MEMORY_DEDUPE");
const supersede = z
  .enum(['auto', 'off', 'default'])
  .describe("Supersession detected at the organization's writes (docs/truth.md); default: MEMORY_SUPERSEDE");

const organizationSummary = z.object({
  organization_id: z.string(),
  name: z.string(),
  namespaces: z.number().int(),
  active_keys: z.number().int(),
  dedupe,
  supersede,
  created_at: z.string(),
});

export const organizationIdParams = z.object({ organization_id: z.string().min(1).max(200) });

/** PATCH /admin/organizations/{id}: what the organization's writes do by default (a write's own field wins). */
export const organizationTruthBody = z
  .strictObject({ dedupe: dedupe.optional(), supersede: supersede.optional() })
  .refine((b) => b.dedupe !== undefined || b.supersede !== undefined, {
    message: 'Give dedupe, supersede or both',
  });

export type OrganizationTruthBody = z.infer<typeof organizationTruthBody>;

export const organizationTruthResponse = z.object({
  code: z.number().int(),
  status: z.literal('success'),
  data: z.object({ organization_id: z.string(), name: z.string(), dedupe, supersede }),
});

export const createOrganizationResponse = z.object({
  code: z.number().int(),
  status: z.literal('success'),
  data: z.object({
    organization_id: z.string(),
    name: z.string(),
    default_namespace_id: z.string(),
    owner_user_id: z.string(),
    api_key: z.object({
      id: z.string(),
      key: z.string().describe('The full organization key: shown this once, stored only as a hash'),
      key_prefix: z.string(),
      permissions: z.array(z.string()),
    }),
  }),
});

export const listOrganizationsResponse = z.object({
  code: z.number().int(),
  status: z.literal('success'),
  data: z.array(organizationSummary),
});

export const keyIdParams = z.object({ key_id: z.string().min(1).max(200) });

export const revokeKeyResponse = z.object({
  code: z.number().int(),
  status: z.literal('success'),
  message: z.string(),
  data: z.object({ key_id: z.string(), organization_id: z.string(), namespace_id: z.string().nullable() }),
});
