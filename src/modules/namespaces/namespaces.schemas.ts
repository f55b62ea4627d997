import { z } from 'zod';
import { deletionReceipt } from '../../platform/http/schemas.ts';

const environment = z.enum(['development', 'staging', 'production']);
const rateLimits = z
  .record(z.string().max(64), z.number().int().min(0).nullable())
  .describe('Limit name → value (null: no limit)');
const defaultPolicy = z
  .record(z.string(), z.unknown())
  .describe('Default memory policy of the namespace (stored; not yet applied to writes)');

/** POST /v1/namespace (client `namespace.create`). */
export const createNamespaceBody = z.object({
  name: z.string().trim().min(1).max(200).describe('Name, unique in the organization (a duplicate is a 400)'),
  environment_type: environment.optional().describe('development, staging or production. Default: production'),
  is_active: z
    .boolean()
    .optional()
    .describe(
      "Default: true. false: the namespace's API keys are refused (403) and it takes no new memories; its memories " +
        'stay readable',
    ),
  rate_limits: rateLimits
    .optional()
    .describe(
      'Limit name → non-negative integer; stored, not yet enforced. A null value is dropped (null means absent)',
    ),
  default_policy: defaultPolicy.optional(),
});
export type CreateNamespaceBody = z.infer<typeof createNamespaceBody>;

/** PUT /v1/namespace/{namespace_id}: every field optional; absent fields stay as they are. */
export const updateNamespaceBody = createNamespaceBody
  .partial()
  .describe('Fields to change; absent fields stay. rate_limits and default_policy replace the stored objects');
export type UpdateNamespaceBody = z.infer<typeof updateNamespaceBody>;

export const namespaceIdParams = z.object({
  namespace_id: z.string().min(1).max(200).describe('Namespace id (objectId)'),
});

export const listNamespacesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size (max 100)'),
  skip: z.coerce.number().int().min(0).default(0).describe('How many namespaces to skip'),
});

/**
 * DELETE /v1/namespace/{namespace_id} flags. Defaults (chosen, the spec leaves them open):
 * every flag true. `delete_neo4j_nodes` is the client's name for `delete_graph_nodes`.
 */
export const deleteNamespaceQuery = z.object({
  delete_memories: z
    .stringbool()
    .optional()
    .describe('Default true: delete its memories. false: they are kept and detached (namespace_id becomes null)'),
  delete_graph_nodes: z
    .stringbool()
    .optional()
    .describe("Default true: delete the namespace's graph nodes. Nodes of deleted memories go with them either way"),
  delete_neo4j_nodes: z
    .stringbool()
    .optional()
    .describe('Client alias of delete_graph_nodes; both with different values is a 422'),
  remove_acl_references: z
    .stringbool()
    .optional()
    .describe('Default true: remove namespace:<id> from every memory ACL of the organization'),
});
export type DeleteNamespaceQuery = z.infer<typeof deleteNamespaceQuery>;

/** NamespaceItem (client contract). */
export const namespaceItem = z.object({
  objectId: z.string().describe('Namespace id'),
  name: z.string().describe('Name, unique in the organization'),
  organization_id: z.string().describe('The organization it belongs to'),
  environment_type: z.string().describe('development, staging or production'),
  is_active: z.boolean().describe('false: its keys are refused and it takes no new memories'),
  rate_limits: z.record(z.string(), z.number().nullable()).describe('Limit name → value, as stored (not yet enforced)'),
  default_policy: z.record(z.string(), z.unknown()).describe('Default memory policy, as stored (not yet applied)'),
  memoriesCount: z.number().int().describe('Memories in the namespace'),
  storageCount: z.number().int().describe('Bytes of memory content in the namespace'),
  createdAt: z.string().describe('ISO 8601 creation time'),
  updatedAt: z.string().describe('ISO 8601 time of the latest change'),
});
export type NamespaceItem = z.infer<typeof namespaceItem>;

const envelope = {
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success (errors answer the error envelope)'),
  error: z.string().nullable().describe('null on success'),
  details: z.unknown().nullable().describe('null on success'),
};

export const namespaceResponse = z.object({ ...envelope, data: namespaceItem.describe('The namespace') });

export const namespaceListResponse = z.object({
  ...envelope,
  data: z.array(namespaceItem).describe('This page of namespaces'),
  total: z.number().int().describe('Namespaces in all (a namespace key sees only its own)'),
  page: z.number().int().describe('The skip count of this page (0-based)'),
  page_size: z.number().int().describe('The limit of this page'),
});

/** Namespace deletion result (spec 2.7), with the client's `neo4j_nodes_deleted` alias. */
export const deleteNamespaceResponse = z.object({
  ...envelope,
  namespace_id: z.string().describe('The deleted namespace'),
  message: z.string().describe('What was done, in words'),
  cascade: z
    .object({
      memories_deleted: z.number().int().describe('Memories deleted'),
      memories_failed: z
        .number()
        .int()
        .describe('Always 0: the deletion is all or nothing (a failure is a 5xx and changes nothing)'),
      memories_detached: z.number().int().describe('Kept memories moved out of the namespace (delete_memories=false)'),
      graph_nodes_deleted: z
        .number()
        .int()
        .describe("Graph nodes gone: the namespace's (delete_graph_nodes) and those of its deleted memories"),
      neo4j_nodes_deleted: z.number().int().describe('Client alias of graph_nodes_deleted'),
      acl_read_cleaned: z.number().int().describe('Memories whose read ACL lost namespace:<id>'),
      acl_write_cleaned: z.number().int().describe('Memories whose write ACL lost namespace:<id>'),
      api_keys_deleted: z.number().int().describe("The namespace's own API keys, which die with it"),
      sessions_deleted: z.number().int().describe('Chat sessions removed with their messages (delete_memories)'),
      messages_deleted: z.number().int().describe('Messages of those sessions'),
    })
    .describe('What the deletion removed'),
  deleted: deletionReceipt,
});
export type NamespaceCascade = z.infer<typeof deleteNamespaceResponse>['cascade'];
