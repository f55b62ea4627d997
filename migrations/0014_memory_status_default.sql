-- A memory is stored searchable (quick_saved) in the request that adds it; there is no queued state.
ALTER TABLE memories ALTER COLUMN status SET DEFAULT 'quick_saved';
