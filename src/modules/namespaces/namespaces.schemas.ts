import { z } from 'zod';

const environment = z.enum(['development', 'staging', 'production']);
const rateLimits = z
  .record(z.string().max(64), z.number().int().min(0).nullable())
  .describe('Limit name → value (null: no limit)');
const defaultPolicy = z
  .record(z.string(), z.unknown())
  .describe('Default memory policy of the namespace (stored; not yet applied to writes)');

/** POST /v1/namespace (client `namespace.create`). */
export const createNamespaceBody = z.object({
  name: z.string().trim().min(1).max(200),
  environment_type: environment.optional().describe('Default: production'),
  is_active: z.boolean().optional().describe('Default: true'),
  rate_limits: rateLimits.optional(),
  default_policy: defaultPolicy.optional(),
});
export type CreateNamespaceBody = z.infer<typeof createNamespaceBody>;

/** PUT /v1/namespace/{namespace_id}: every field optional; absent fields stay as they are. */
export const updateNamespaceBody = createNamespaceBody.partial();
export type UpdateNamespaceBody = z.infer<typeof updateNamespaceBody>;

export const namespaceIdParams = z.object({ namespace_id: z.string().min(1).max(200) });

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
    .describe('Default true. false: memories are kept and detached (namespace_id becomes null)'),
  delete_graph_nodes: z.stringbool().optional().describe('Default true'),
  delete_neo4j_nodes: z.stringbool().optional().describe('Client alias of delete_graph_nodes'),
  remove_acl_references: z
    .stringbool()
    .optional()
    .describe('Default true: remove namespace:<id> from every memory ACL of the organization'),
});
export type DeleteNamespaceQuery = z.infer<typeof deleteNamespaceQuery>;

/** NamespaceItem (client contract). */
export const namespaceItem = z.object({
  objectId: z.string(),
  name: z.string(),
  organization_id: z.string(),
  environment_type: z.string(),
  is_active: z.boolean(),
  rate_limits: z.record(z.string(), z.number().nullable()),
  default_policy: z.record(z.string(), z.unknown()),
  memoriesCount: z.number().int(),
  storageCount: z.number().int().describe('Bytes of memory content in the namespace'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type NamespaceItem = z.infer<typeof namespaceItem>;

const envelope = {
  code: z.number().int(),
  status: z.string(),
  error: z.string().nullable(),
  details: z.unknown().nullable(),
};

export const namespaceResponse = z.object({ ...envelope, data: namespaceItem });

export const namespaceListResponse = z.object({
  ...envelope,
  data: z.array(namespaceItem),
  total: z.number().int(),
  page: z.number().int().describe('The skip count of this page (0-based)'),
  page_size: z.number().int(),
});

/** Namespace deletion result (spec 2.7), with the client's `neo4j_nodes_deleted` alias. */
export const deleteNamespaceResponse = z.object({
  ...envelope,
  namespace_id: z.string(),
  message: z.string(),
  cascade: z.object({
    memories_deleted: z.number().int(),
    memories_failed: z.number().int(),
    memories_detached: z.number().int().describe('Kept memories moved out of the namespace (delete_memories=false)'),
    graph_nodes_deleted: z.number().int().describe('Always 0 until the graph store exists'),
    neo4j_nodes_deleted: z.number().int().describe('Client alias of graph_nodes_deleted'),
    acl_read_cleaned: z.number().int().describe('Memories whose read ACL lost namespace:<id>'),
    acl_write_cleaned: z.number().int().describe('Memories whose write ACL lost namespace:<id>'),
    api_keys_deleted: z.number().int().describe("The namespace's own API keys, which die with it"),
  }),
});
export type NamespaceCascade = z.infer<typeof deleteNamespaceResponse>['cascade'];
