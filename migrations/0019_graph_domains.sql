-- Graph-transform domains (GET/POST /v1/graph/domains; src/modules/transform/domains.*).
-- The 14 built-in domains live in code; this table holds each organization's custom ones.
-- `signals` is always the complete list of 14 bands, one per frequency, sorted by frequency
-- (the caller's signals completed with `general`'s bands when registered).
CREATE TABLE graph_domains (
  organization_id     text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- <name>:<domain>:<version>, as registered.
  domain_id           text NOT NULL,
  name                text NOT NULL,
  description         text NOT NULL DEFAULT '',
  signals             jsonb NOT NULL,
  -- Band name → default score multiplier.
  signal_multipliers  jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- {enabled, refresh_every_n}.
  catalog_config      jsonb NOT NULL DEFAULT '{"enabled": true, "refresh_every_n": 100}'::jsonb,
  -- Rerank routing overrides, stored as given.
  routing_config      jsonb NOT NULL DEFAULT '{}'::jsonb,
  owner_user_id       text REFERENCES users(id) ON DELETE SET NULL,
  -- The namespace of the key that registered it: only that namespace's keys (and organization
  -- keys) may change it. Domains are shared by the whole organization either way.
  owner_namespace_id  text REFERENCES namespaces(id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, domain_id)
);

-- One catalog per (organization, domain), built-ins included: counts of what the domain's
-- transforms contained, folded in by the `domain.catalog.refresh` job. `pending` counts the
-- transforms since the last refresh; `refresh_job_id` is the queued refresh, if any (at most one
-- is queued per catalog; the job clears it when it ends).
CREATE TABLE domain_catalogs (
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain_id        text NOT NULL,
  catalog          jsonb NOT NULL DEFAULT '{}'::jsonb,
  pending          integer NOT NULL DEFAULT 0,
  refresh_job_id   text,
  last_refreshed   timestamptz,
  last_updated     timestamptz,
  PRIMARY KEY (organization_id, domain_id)
);

-- Band values of transforms not yet folded into the catalog (at most 1,000 kept per catalog:
-- older ones are dropped first). A refresh folds and deletes them in one transaction.
CREATE TABLE domain_catalog_buffer (
  id               bigserial PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain_id        text NOT NULL,
  signals          jsonb NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX domain_catalog_buffer_idx ON domain_catalog_buffer (organization_id, domain_id, id);
