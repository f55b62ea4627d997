-- Deletion receipts (issue #22): every delete also removes the rows that name what it deletes
-- without a foreign key (jobs, events, webhook deliveries, feedback signals). These indexes keep
-- those deletes to index lookups instead of scans of tables that grow with every write.
--
-- What a job is about (src/platform/jobs/jobs.store.ts, JOB_SUBJECT: the same expression).
CREATE INDEX jobs_subject_idx ON jobs
  ((coalesce(payload->>'memory_id', payload->>'upload_id', payload->>'session_id', payload->>'delivery_id')));
CREATE INDEX events_memory_idx ON events (memory_id) WHERE memory_id IS NOT NULL;
CREATE INDEX events_session_idx ON events (session_id) WHERE session_id IS NOT NULL;
CREATE INDEX webhook_deliveries_memory_all_idx ON webhook_deliveries (memory_id) WHERE memory_id IS NOT NULL;
CREATE INDEX webhook_deliveries_batch_all_idx ON webhook_deliveries (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX feedback_signals_memory_idx ON feedback_signals (memory_id);
