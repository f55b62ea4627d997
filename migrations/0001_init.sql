-- Foundation: tenants, users, credentials. Every tenant-owned row carries organization_id.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE organizations (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE namespaces (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name             text NOT NULL,
  environment_type text NOT NULL DEFAULT 'production',
  is_active        boolean NOT NULL DEFAULT true,
  rate_limits      jsonb NOT NULL DEFAULT '{}'::jsonb,
  default_policy   jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, name)
);

-- Internal users; external_id is the application's own id, unique per organization.
CREATE TABLE users (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  external_id      text,
  email            text,
  display_name     text,
  image_url        text,
  type             text NOT NULL DEFAULT 'user',
  metadata         jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_org_external_uq ON users (organization_id, external_id) WHERE external_id IS NOT NULL;

-- Keys are stored only as SHA-256 hashes; key_prefix is the part shown on later reads.
CREATE TABLE api_keys (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  namespace_id     text REFERENCES namespaces(id) ON DELETE CASCADE,
  user_id          text REFERENCES users(id) ON DELETE SET NULL,
  name             text NOT NULL,
  environment      text NOT NULL DEFAULT 'production',
  permissions      text[] NOT NULL DEFAULT ARRAY['read','write','delete'],
  key_hash         text NOT NULL UNIQUE,
  key_prefix       text NOT NULL,
  is_active        boolean NOT NULL DEFAULT true,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_used_at     timestamptz,
  revoked_at       timestamptz
);
CREATE INDEX api_keys_org_idx ON api_keys (organization_id, namespace_id);

-- End-user sessions (X-Session-Token), created by the login flow; tokens stored hashed.
CREATE TABLE sessions (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash       text NOT NULL UNIQUE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  revoked_at       timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
