-- Memories whose read ACL names anyone besides their owner. Search looks these up for every
-- reader (what is shared with them); without this flag the GIN lookup on acl_read would also
-- match every one of the reader's own memories (their ACL names the owner) and then discard them.
ALTER TABLE memories ADD COLUMN is_shared boolean GENERATED ALWAYS AS (
  NOT (acl_read <@ ARRAY['user:' || user_id, 'external_user:' || coalesce(external_user_id, '')])
) STORED;
CREATE INDEX memories_shared_read_idx ON memories USING gin (acl_read) WHERE is_shared;
