-- Product telemetry sent by clients (POST /v1/telemetry/events; docs/telemetry.md). The
-- organization, key and user come from the credential, never from the body; rows are pruned
-- after TELEMETRY_RETENTION_DAYS by the maintenance pass (by received_at).
CREATE TABLE telemetry_events (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- The credential's namespace, key and user (plain text: analytics outlive neither, and a
  -- namespace or user deletion need not scan this table; retention removes them).
  namespace_id    text,
  api_key_id      text,
  user_id         text,
  event_name      text NOT NULL,
  properties      jsonb NOT NULL DEFAULT '{}',
  -- What the sender says: its own (hashed) user id and session id, and the event's time.
  client_user_id  text,
  anonymous_id    text,
  occurred_at     timestamptz NOT NULL,
  received_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX telemetry_events_summary_idx ON telemetry_events (organization_id, occurred_at);
CREATE INDEX telemetry_events_received_idx ON telemetry_events (received_at);
