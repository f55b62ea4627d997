-- AI proxy usage (docs/ai-proxy.md): one row per organization, UTC day, provider, model and
-- caller (API key, the key's namespace, the acting user), counted by one upsert per proxied call.
-- '' stands for "none" (an end user's token alone has no API key; an organization key no
-- namespace) so the key is a plain primary key on both stores. The ids are not foreign keys:
-- usage is the organization's record of what it spent and outlives a revoked key or a deleted
-- user; it holds no content, only counts.
CREATE TABLE ai_usage (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  day             date NOT NULL,
  provider        text NOT NULL,
  model           text NOT NULL,
  api_key_id      text NOT NULL DEFAULT '',
  namespace_id    text NOT NULL DEFAULT '',
  user_id         text NOT NULL DEFAULT '',
  requests        bigint NOT NULL DEFAULT 0,
  errors          bigint NOT NULL DEFAULT 0,
  input_tokens    bigint NOT NULL DEFAULT 0,
  output_tokens   bigint NOT NULL DEFAULT 0,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, day, provider, model, api_key_id, namespace_id, user_id)
);
