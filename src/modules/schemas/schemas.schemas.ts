import { z } from 'zod';
import { errorEnvelope } from '../../platform/http/schemas.ts';
import { PATTERN_LIMITS } from './validate.pattern.ts';

/** Lifecycle of a schema (client `UserGraphSchema.status`); create defaults to `draft`. */
export const SCHEMA_STATUSES = ['draft', 'active', 'deprecated', 'archived'] as const;
/** Who shares a schema (client `UserGraphSchema.scope`). */
export const SCHEMA_SCOPES = ['personal', 'workspace', 'namespace', 'organization'] as const;
export const PROPERTY_TYPES = ['string', 'integer', 'float', 'boolean', 'array', 'datetime', 'object'] as const;

export type SchemaStatus = (typeof SCHEMA_STATUSES)[number];
export type SchemaScope = (typeof SCHEMA_SCOPES)[number];

const status = z.enum(SCHEMA_STATUSES);
const scope = z.enum(SCHEMA_SCOPES);
const text = (max: number) => z.string().max(max);
/** Node and relationship type names become graph labels: an identifier, as in the original service. */
const typeName = z
  .string()
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'Must start with a letter and hold only letters, digits and _');
const propertyName = z.string().trim().min(1).max(100);
const id = z.string().trim().min(1).max(200);
/**
 * A plain id or a Parse-style pointer object (`{objectId}` / `{__type: 'Pointer', objectId}`),
 * as the client allows.
 */
const pointer = z.union([id, z.record(z.string(), z.unknown())]);
const looseObject = z.record(z.string(), z.unknown());
const resolutionPolicy = z.enum(['upsert', 'lookup']);

/** PropertyDefinition (client contract). Cross-field rules (enum, default, bounds) are in validate.ts. */
export const propertyDefinition = z.object({
  type: z.enum(PROPERTY_TYPES),
  required: z.boolean().optional(),
  description: text(2000).optional(),
  default: z.unknown().optional(),
  enum_values: z.array(z.string().max(200)).optional().describe('Allowed values (at most 15)'),
  min_length: z.number().int().min(0).optional(),
  max_length: z.number().int().min(0).optional(),
  min_value: z.number().optional(),
  max_value: z.number().optional(),
  pattern: text(PATTERN_LIMITS.chars)
    .optional()
    .describe(
      'Regular expression (RE2 syntax: no back-references, no lookaround) the value must contain a match of; ' +
        `at most ${PATTERN_LIMITS.chars} characters and ${PATTERN_LIMITS.size} compiled instructions`,
    ),
});

const properties = z.record(propertyName, propertyDefinition);

/** UserNodeType (client contract). `name` defaults to its key in `node_types`, `label` to the name. */
export const nodeTypeInput = z.object({
  name: typeName.optional().describe('Default: the key in node_types (must equal it when given)'),
  label: text(100).optional().describe('Display name; default: the name'),
  description: text(2000).optional(),
  color: text(32).optional(),
  icon: text(64).optional(),
  properties: properties.optional().describe('At most 10 per node type'),
  required_properties: z.array(propertyName).max(10).optional(),
  unique_identifiers: z.array(propertyName).max(10).optional().describe('Deprecated: use constraint.search.properties'),
  resolution_policy: resolutionPolicy.optional(),
  link_only: z.boolean().optional().describe('Deprecated: resolution_policy=lookup'),
  constraint: looseObject.optional().describe('NodeConstraintInput; node_type is implicit'),
});

/** UserRelationshipType (client contract). Allowed types may name node types outside this schema (built-in ones). */
export const relationshipTypeInput = z.object({
  name: typeName.optional().describe('Default: the key in relationship_types (must equal it when given)'),
  label: text(100).optional(),
  allowed_source_types: z.array(typeName).min(1).max(20),
  allowed_target_types: z.array(typeName).min(1).max(20),
  cardinality: z.enum(['one-to-one', 'one-to-many', 'many-to-many']).optional(),
  description: text(2000).optional(),
  color: text(32).optional(),
  properties: properties.optional().describe('At most 20 per relationship type'),
  resolution_policy: resolutionPolicy.optional(),
  link_only: z.boolean().optional(),
  constraint: looseObject.optional().describe('EdgeConstraintInput; edge_type is implicit'),
});

/**
 * POST /v1/schemas body: UserGraphSchema, `name` required. Server-owned fields the client may
 * echo back (`id`, `created_at`, `updated_at`, `usage_count`, `last_used_at`) are ignored,
 * like any unknown field. Limits (10 node types, 20 relationship types, 10 properties per
 * node type, 15 enum values) are checked by the service so PUT checks the merged result.
 */
export const createSchemaBody = z.object({
  name: z.string().trim().min(1).max(100),
  description: text(2000).optional(),
  version: z
    .string()
    .max(32)
    .regex(/^[0-9A-Za-z.+-]+$/, 'Letters, digits, ".", "+" and "-" only')
    .optional()
    .describe('Default: 1.0.0'),
  status: status.optional().describe('Default: draft'),
  scope: scope
    .optional()
    .describe('Default: namespace with a namespace (given or from a namespace key), else organization'),
  node_types: z.record(typeName, nodeTypeInput).optional().describe('At most 10'),
  relationship_types: z.record(typeName, relationshipTypeInput).optional().describe('At most 20'),
  memory_policy: looseObject.optional().describe('Default memory policy of memories that use this schema'),
  namespace_id: id.optional(),
  namespace: pointer.optional().describe('Deprecated alias of namespace_id'),
  organization_id: id.optional().describe('Taken from the credential; must not name another organization'),
  organization: pointer.optional().describe('Deprecated alias of organization_id'),
  workspace_id: pointer.optional().describe('Legacy workspace label (stored, filterable)'),
  user_id: pointer.optional().describe('Ignored: the creator is the caller'),
  read_access: z.array(text(300)).max(100).optional().describe('Stored and returned; visibility follows scope'),
  write_access: z.array(text(300)).max(100).optional().describe('Stored and returned; visibility follows scope'),
});
export type CreateSchemaBody = z.infer<typeof createSchemaBody>;

/** PUT /v1/schemas/{schema_id}: any subset; node_types / relationship_types replace the stored maps. */
export const updateSchemaBody = createSchemaBody.partial();
export type UpdateSchemaBody = z.infer<typeof updateSchemaBody>;

export const schemaIdParams = z.object({ schema_id: z.string().min(1).max(200) });

export const listSchemasQuery = z.object({
  status_filter: status.optional().describe('Only this status. Default: every status but archived'),
  workspace_id: z.string().max(200).optional(),
  namespace_id: z.string().max(200).optional(),
  scope: scope.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100).describe('Page size (max 100)'),
  skip: z.coerce.number().int().min(0).default(0),
});
export type ListSchemasQuery = z.infer<typeof listSchemasQuery>;

const nodeTypeOutput = nodeTypeInput.extend({ name: z.string(), label: z.string() });
const relationshipTypeOutput = relationshipTypeInput.extend({ name: z.string(), label: z.string() });

/** UserGraphSchema as emitted (client contract), with the deprecated pointer aliases filled. */
export const userGraphSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  version: z.string(),
  status,
  scope,
  node_types: z.record(z.string(), nodeTypeOutput),
  relationship_types: z.record(z.string(), relationshipTypeOutput),
  memory_policy: looseObject.nullable(),
  namespace_id: z.string().nullable(),
  namespace: z.string().nullable().describe('Deprecated alias of namespace_id'),
  organization_id: z.string(),
  organization: z.string().describe('Deprecated alias of organization_id'),
  user_id: z.string().nullable().describe('The creating user'),
  workspace_id: z.string().nullable(),
  read_access: z.array(z.string()),
  write_access: z.array(z.string()),
  usage_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type UserGraphSchema = z.infer<typeof userGraphSchema>;
export type PropertyDefinition = z.infer<typeof propertyDefinition>;

/** The schema endpoints' envelope uses `success`, not `status` (client contract). */
const ok = { success: z.literal(true), code: z.number().int(), error: z.null() };

export const schemaResponse = z.object({ ...ok, data: userGraphSchema });

export const schemaListResponse = z.object({
  ...ok,
  data: z.array(userGraphSchema),
  total: z.number().int().describe('Matching schemas, all pages'),
  page: z.number().int().describe('The skip count of this page (0-based)'),
  page_size: z.number().int(),
});

export const schemaDeleteResponse = z.object({ ...ok, message: z.string(), schema_id: z.string() });

/** The house error envelope plus `success: false`, as the original service answers on these routes. */
const schemaError = errorEnvelope.extend({ success: z.literal(false).default(false) });
export const schemaErrorResponses = {
  400: schemaError,
  401: schemaError,
  403: schemaError,
  404: schemaError,
  422: schemaError,
  429: schemaError,
  500: schemaError,
} as const;
