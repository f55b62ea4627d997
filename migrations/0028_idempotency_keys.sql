-- Idempotency-Key (docs/api-conventions.md, "Idempotent writes"; src/platform/http/idempotency.ts).
-- One row per key in its scope (organization, the credential's namespace or '' for an
-- organization-wide one, the key): inserted *before* the write runs (status 'pending'), so two
-- racing requests with one key meet at this primary key and only one of them writes; completed
-- with the first 2xx response, which replays answer verbatim until expires_at (24 h). A failed
-- request deletes its claim, so the same key may be retried. The maintenance pass deletes
-- expired rows (src/retention.ts).
--
-- No foreign key to namespaces: a namespace key's rows are its organization's record of what
-- was answered; they expire within a day and go with the organization (cascade).
CREATE TABLE idempotency_keys (
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  namespace_key    text NOT NULL,
  idempotency_key  text NOT NULL,
  -- SHA-256 of the request: method, route, parameters, query and canonical JSON body (or a
  -- multipart upload's fields and file bytes), and the end user of a token-only caller.
  request_hash     text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
  -- Which request holds a pending claim: only it completes or releases the row (a claim taken
  -- over after IDEMPOTENCY_PENDING_MS must not be finished by the request that lost it).
  claim_id         text NOT NULL,
  response_status  int,
  response_type    text,
  response_body    text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  PRIMARY KEY (organization_id, namespace_key, idempotency_key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);
