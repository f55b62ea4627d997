-- Domain events (ARCHITECTURE.md §4): written in the same transaction as the change they
-- report, so an event exists exactly when its change committed. Side effects (webhooks,
-- later WebSocket pushes) are driven from here, never called inline.
-- kind: memory.completed | memory.failed | batch.stored | batch.completed.
CREATE TABLE events (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind             text NOT NULL,
  memory_id        text,
  batch_id         text,
  payload          jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_org_idx ON events (organization_id, created_at DESC);
CREATE INDEX events_batch_idx ON events (batch_id, kind) WHERE batch_id IS NOT NULL;
-- Exactly once: a memory finishes once, a batch is stored and completes once. Inserts use
-- ON CONFLICT DO NOTHING, so a duplicate (a job run twice, two racing writers) is a no-op.
CREATE UNIQUE INDEX events_memory_once ON events (memory_id, kind)
  WHERE kind IN ('memory.completed', 'memory.failed');
CREATE UNIQUE INDEX events_batch_once ON events (batch_id, kind)
  WHERE kind IN ('batch.stored', 'batch.completed');

-- One webhook subscription and its (single) delivery. Registered with the memory or batch
-- insert; triggered (event_id set, webhook.deliver job enqueued) once when the target
-- finishes. The secret is stored in clear because signing needs it (docs/webhooks.md).
CREATE TABLE webhook_deliveries (
  id                text PRIMARY KEY,
  organization_id   text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  memory_id         text,
  batch_id          text,
  url               text NOT NULL,
  secret            text,
  event_id          text REFERENCES events(id) ON DELETE SET NULL,
  status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts          int NOT NULL DEFAULT 0,
  last_status_code  int,
  last_error        text,
  triggered_at      timestamptz,
  delivered_at      timestamptz,
  failed_at         timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  CHECK ((memory_id IS NULL) <> (batch_id IS NULL))
);
CREATE INDEX webhook_deliveries_memory_idx ON webhook_deliveries (memory_id) WHERE memory_id IS NOT NULL AND triggered_at IS NULL;
CREATE INDEX webhook_deliveries_batch_idx ON webhook_deliveries (batch_id) WHERE batch_id IS NOT NULL AND triggered_at IS NULL;

-- Batches stored before events existed are complete batches: record that, so their status
-- and WebSocket streams do not wait for a batch.stored that will never come.
INSERT INTO events (id, organization_id, kind, batch_id)
SELECT DISTINCT ON (batch_id) 'evt_migrated_' || batch_id, organization_id, 'batch.stored', batch_id
FROM memories WHERE batch_id IS NOT NULL
ON CONFLICT DO NOTHING;
