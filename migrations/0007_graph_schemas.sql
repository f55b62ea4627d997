-- User graph schemas (`/v1/schemas`, client `schemas.*`): custom node and relationship
-- types that graph extraction and manual graph writes are checked against.
--
-- A schema belongs to an organization and, for namespace scope (or a namespace key's
-- personal schema), to one namespace. Deleting a namespace deletes its schemas: setting
-- namespace_id to NULL instead would silently widen them to the whole organization.
-- DELETE /v1/schemas/{id} is a soft delete (deleted_at, status 'archived'); soft-deleted
-- rows are invisible to every read.
CREATE TABLE graph_schemas (
  id                  text PRIMARY KEY,
  organization_id     text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  namespace_id        text REFERENCES namespaces(id) ON DELETE CASCADE,
  -- The creating user; personal schemas are visible to this user only.
  user_id             text REFERENCES users(id) ON DELETE SET NULL,
  -- Legacy workspace label from the original service: stored, filterable, not a tenant.
  workspace_id        text,
  name                text NOT NULL,
  description         text,
  version             text NOT NULL DEFAULT '1.0.0',
  status              text NOT NULL DEFAULT 'draft'
                      CHECK (status IN ('draft', 'active', 'deprecated', 'archived')),
  scope               text NOT NULL DEFAULT 'organization'
                      CHECK (scope IN ('personal', 'workspace', 'namespace', 'organization')),
  node_types          jsonb NOT NULL DEFAULT '{}'::jsonb,
  relationship_types  jsonb NOT NULL DEFAULT '{}'::jsonb,
  memory_policy       jsonb,
  read_access         text[] NOT NULL DEFAULT '{}',
  write_access        text[] NOT NULL DEFAULT '{}',
  usage_count         integer NOT NULL DEFAULT 0,
  last_used_at        timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  deleted_at          timestamptz,
  CHECK (scope <> 'namespace' OR namespace_id IS NOT NULL)
);

-- Listing: an organization's live schemas in creation order (optionally one namespace).
CREATE INDEX graph_schemas_list_idx ON graph_schemas (organization_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX graph_schemas_namespace_idx ON graph_schemas (namespace_id, created_at, id)
  WHERE deleted_at IS NULL AND namespace_id IS NOT NULL;
-- `status_filter` on list, and the graph module's lookups of active schemas.
CREATE INDEX graph_schemas_status_idx ON graph_schemas (organization_id, status, created_at) WHERE deleted_at IS NULL;
