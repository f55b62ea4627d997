-- OAuth 2.0 login delegated to an OpenID Connect provider (docs/oauth.md).

-- One row per GET /login: the PKCE verifier, nonce and where to send the caller back.
-- `id` is the state Engram sends to the provider (random, single use, short TTL). The row
-- exists before anyone is authenticated, so it has no organization yet; it is never read
-- by tenant, only by its random state or by the hash of the provider's code.
CREATE TABLE oauth_login_requests (
  id             text PRIMARY KEY,
  client_type    text NOT NULL,
  redirect_uri   text NOT NULL,
  caller_state   text,
  code_verifier  text NOT NULL,
  nonce          text NOT NULL,
  -- Filled by GET /callback: SHA-256 of the provider's code and the `iss` it came with.
  code_hash      text UNIQUE,
  callback_iss   text,
  callback_at    timestamptz,
  -- Filled by POST /token: the session the code produced (a replayed code revokes it).
  exchanged_at   timestamptz,
  session_id     text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);
CREATE INDEX oauth_login_requests_expiry_idx ON oauth_login_requests (expires_at);

-- Which internal user a provider subject is, per organization.
CREATE TABLE oauth_identities (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  issuer           text NOT NULL,
  subject          text NOT NULL,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_login_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, issuer, subject)
);

-- Engram refresh tokens, stored as SHA-256 hashes. One family per login session
-- (session_id); each use rotates the token, and a reused token revokes the family.
CREATE TABLE oauth_refresh_tokens (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  session_id       text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash       text NOT NULL UNIQUE,
  client_type      text NOT NULL,
  subject          text NOT NULL,
  scope            text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  used_at          timestamptz,
  revoked_at       timestamptz
);
CREATE INDEX oauth_refresh_tokens_session_idx ON oauth_refresh_tokens (session_id);

-- HMAC keys for Engram access tokens when OAUTH_JWT_SECRET is not set: generated once,
-- shared by every process on the store, selected by the JWT `kid`.
CREATE TABLE oauth_signing_keys (
  id          text PRIMARY KEY,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
