-- Durable background jobs (src/platform/jobs). A job is enqueued in the writer's transaction
-- and claimed with FOR UPDATE SKIP LOCKED. status: queued (waiting for run_at), running
-- (held by locked_by until locked_until; an expired lock means the worker died and the job
-- is claimable again), failed (an attempt failed; retried at run_at), completed, dead
-- (max_attempts used up; last_error says why).
CREATE TABLE jobs (
  id               text PRIMARY KEY,
  organization_id  text REFERENCES organizations(id) ON DELETE CASCADE,
  kind             text NOT NULL,
  payload          jsonb NOT NULL DEFAULT '{}'::jsonb,
  status           text NOT NULL DEFAULT 'queued'
                   CHECK (status IN ('queued', 'running', 'completed', 'failed', 'dead')),
  attempts         int NOT NULL DEFAULT 0,
  max_attempts     int NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
  run_at           timestamptz NOT NULL DEFAULT now(),
  locked_by        text,
  locked_until     timestamptz,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
-- Claiming reads only unfinished jobs: waiting ones by run_at, running ones by lock expiry.
CREATE INDEX jobs_claim_idx ON jobs (kind, run_at) WHERE status IN ('queued', 'failed');
CREATE INDEX jobs_lock_idx ON jobs (locked_until) WHERE status = 'running';
CREATE INDEX jobs_org_idx ON jobs (organization_id, created_at DESC);

-- Memory lifecycle: queued → quick_saved (stored, searchable) → processing → completed | failed.
-- status and status_error exist since 0002; these record when the steps happened.
ALTER TABLE memories ADD COLUMN processing_started_at timestamptz;
ALTER TABLE memories ADD COLUMN completed_at timestamptz;
ALTER TABLE memories ADD COLUMN failed_at timestamptz;
UPDATE memories SET completed_at = updated_at WHERE status = 'completed' AND completed_at IS NULL;
