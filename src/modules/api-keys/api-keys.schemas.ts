import { z } from 'zod';

const permission = z.enum(['read', 'write', 'delete']);

/** POST /v1/namespace/{namespace_id}/api-keys (spec 4.7). */
export const createKeyBody = z.object({
  name: z.string().trim().min(1).max(200).describe('Human-readable, shown in admin UIs'),
  environment: z.enum(['development', 'staging', 'production']).optional().describe('Default: production'),
  permissions: z
    .array(permission)
    .min(1)
    .max(3)
    .optional()
    .describe(
      "A subset of read, write, delete, and of the minting key's own permissions. Default: the minting key's permissions",
    ),
});
export type CreateKeyBody = z.infer<typeof createKeyBody>;

export const namespaceKeyParams = z.object({ namespace_id: z.string().min(1).max(200) });
export const keyIdParams = namespaceKeyParams.extend({ key_id: z.string().min(1).max(200) });

/** API key record (spec 2.8) without the key: what every later read shows. */
export const apiKeyRecord = z.object({
  objectId: z.string(),
  key_prefix: z.string().describe('First 24 characters of the key'),
  name: z.string(),
  namespace_id: z.string(),
  organization_id: z.string(),
  environment: z.string(),
  permissions: z.array(z.string()),
  is_active: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyRecord = z.infer<typeof apiKeyRecord>;

const envelope = {
  code: z.number().int(),
  status: z.string(),
  error: z.string().nullable(),
  details: z.unknown().nullable(),
};

export const createKeyResponse = z.object({
  ...envelope,
  data: apiKeyRecord.extend({ key: z.string().describe('The full key. Returned only here, once') }),
});

export const listKeysResponse = z.object({ ...envelope, data: z.array(apiKeyRecord), total: z.number().int() });

export const revokeKeyResponse = z.object({ ...envelope, key_id: z.string(), message: z.string() });
