-- Events of chat sessions (docs/realtime.md): a message stored, made into a memory or failed, a
-- summary refreshed. `session_id` (the session's own id, not the client's key) routes their
-- NOTIFY to the session's WebSocket status streams, as memory_id and batch_id route the others.
ALTER TABLE events ADD COLUMN session_id text;
