-- Neighbouring turns of one conversation session (search context expansion).
CREATE INDEX memories_session_idx ON memories (organization_id, user_id, (metadata->>'sessionId'), occurred_at, id)
  WHERE metadata ? 'sessionId' AND occurred_at IS NOT NULL;
