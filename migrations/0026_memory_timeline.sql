-- Search's inferred threads (docs/retrieval.md, "Conversation context"):
-- a user's timeline of memories without a session, written on their own or carrying their own
-- time (metadata.createdAt): the previous and next one by that time and id;
CREATE INDEX memories_timeline_idx ON memories (organization_id, user_id, (coalesce(occurred_at, created_at)), id)
  WHERE NOT (metadata ? 'sessionId' AND occurred_at IS NOT NULL) AND (batch_id IS NULL OR occurred_at IS NOT NULL);
-- and a document's chunks by their index.
CREATE INDEX memories_chunk_idx ON memories (batch_id, (metadata->>'chunk_index')) WHERE metadata ? 'chunk_index';
