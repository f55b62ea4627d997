import { z } from 'zod';

const permission = z.enum(['read', 'write', 'delete']);

/** POST /v1/namespace/{namespace_id}/api-keys (spec 4.7). */
export const createKeyBody = z.object({
  name: z.string().trim().min(1).max(200).describe('Human-readable, shown in admin UIs'),
  environment: z
    .enum(['development', 'staging', 'production'])
    .optional()
    .describe('development, staging or production. Default: production'),
  permissions: z
    .array(permission)
    .min(1)
    .max(3)
    .optional()
    .describe(
      "A subset of read, write, delete, and of the minting key's own permissions. Default: the minting key's " +
        'permissions',
    ),
});
export type CreateKeyBody = z.infer<typeof createKeyBody>;

export const namespaceKeyParams = z.object({
  namespace_id: z.string().min(1).max(200).describe('Namespace the keys belong to'),
});
export const keyIdParams = namespaceKeyParams.extend({
  key_id: z.string().min(1).max(200).describe('API key id (objectId)'),
});

/** API key record (spec 2.8) without the key: what every later read shows. */
export const apiKeyRecord = z.object({
  objectId: z.string().describe('API key id'),
  key_prefix: z.string().describe('First 24 characters of the key'),
  name: z.string().describe('Human-readable name'),
  namespace_id: z.string().describe('The namespace the key is confined to'),
  organization_id: z.string().describe('The organization of the namespace'),
  environment: z.string().describe('development, staging or production'),
  permissions: z.array(z.string()).describe('Its permissions: a subset of read, write, delete'),
  is_active: z.boolean().describe('false once revoked'),
  createdAt: z.string().describe('ISO 8601 creation time'),
  lastUsedAt: z
    .string()
    .nullable()
    .describe('ISO 8601 time of its latest use (updated at most once a minute); null if never used'),
});
export type ApiKeyRecord = z.infer<typeof apiKeyRecord>;

const envelope = {
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success (errors answer the error envelope)'),
  error: z.string().nullable().describe('null on success'),
  details: z.unknown().nullable().describe('null on success'),
};

export const createKeyResponse = z.object({
  ...envelope,
  data: apiKeyRecord
    .extend({ key: z.string().describe('The full key. Returned only here, once') })
    .describe('The new key'),
});

export const listKeysResponse = z.object({
  ...envelope,
  data: z.array(apiKeyRecord).describe("The namespace's keys, revoked ones included (is_active false)"),
  total: z.number().int().describe('How many keys data holds'),
});

export const revokeKeyResponse = z.object({
  ...envelope,
  key_id: z.string().describe('The revoked key'),
  message: z.string().describe('What was done, in words'),
});
