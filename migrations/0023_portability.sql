-- Portability (issue #21): the sync change feed (GET /v1/sync/delta, docs/sync.md) and OMO import.
--
-- Every memory carries its position in the feed: (sync_xid, sync_seq), the id of the
-- transaction that last changed what a replica holds of it, and a sequence number taken in
-- that transaction. A delete leaves a tombstone with a position of its own, written by the
-- trigger below in the deleting statement, so no delete path (one memory, a user's, a
-- namespace's, a batch's, a cascade from a user or an organization) can forget it.
--
-- Why the transaction id: sequence numbers are taken in one order and committed in another,
-- so a reader that had seen position 11 could miss 10 committing later. The feed hands out
-- only positions whose transaction id is below the reading snapshot's xmin (every transaction
-- below it has ended), in (sync_xid, sync_seq) order: a position below xmin never appears
-- later, and a position at or above it waits for the next read. Identical on both stores
-- (PGlite runs one transaction at a time: xmin is always past the last commit).
CREATE SEQUENCE memory_sync_seq;

-- The default fills every stored memory once (the migration's transaction id, a sequence
-- number per row) and every insert from now on, with no trigger.
ALTER TABLE memories
  ADD COLUMN sync_xid bigint NOT NULL DEFAULT pg_current_xact_id()::text::bigint,
  ADD COLUMN sync_seq bigint NOT NULL DEFAULT nextval('memory_sync_seq');

-- The feed of an organization (also a namespace's, filtered), and of one owner.
CREATE INDEX memories_sync_idx ON memories (organization_id, sync_xid, sync_seq);
CREATE INDEX memories_sync_user_idx ON memories (organization_id, user_id, sync_xid, sync_seq);

-- A memory a replica must drop: deleted, or moved out of where it was visible (another
-- namespace, a changed read list, flagged). The columns are the memory's scope at that
-- moment, so the tombstone reaches exactly the feeds that could have shown it.
-- No foreign key: an organization's own deletion cascades to its memories, whose tombstones
-- would then reference a row being deleted (the trigger skips those organizations instead).
CREATE TABLE memory_tombstones (
  organization_id text NOT NULL,
  xid             bigint NOT NULL DEFAULT pg_current_xact_id()::text::bigint,
  seq             bigint NOT NULL DEFAULT nextval('memory_sync_seq'),
  memory_id       text NOT NULL,
  namespace_id    text,
  user_id         text NOT NULL,
  acl_read        text[] NOT NULL,
  risk            text NOT NULL,
  reason          text NOT NULL,
  deleted_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, xid, seq)
);
CREATE INDEX memory_tombstones_age_idx ON memory_tombstones (deleted_at);

-- Per organization, the newest position of a tombstone pruned by retention
-- (SYNC_TOMBSTONE_RETENTION_DAYS): a cursor before it may have missed a delete (410).
CREATE TABLE sync_horizon (
  organization_id text PRIMARY KEY,
  xid             bigint NOT NULL,
  seq             bigint NOT NULL
);

-- Deletes: one statement for every deleted row, in the deleting statement.
CREATE FUNCTION memories_sync_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_tombstones (organization_id, memory_id, namespace_id, user_id, acl_read, risk, reason)
  SELECT o.organization_id, o.id, o.namespace_id, o.user_id, o.acl_read, o.risk, 'deleted'
  FROM old_memories o
  WHERE o.organization_id IN (SELECT id FROM organizations)
  ORDER BY o.organization_id, o.id;
  RETURN NULL;
END $$;
CREATE TRIGGER memories_sync_delete AFTER DELETE ON memories
  REFERENCING OLD TABLE AS old_memories FOR EACH STATEMENT EXECUTE FUNCTION memories_sync_delete();

-- Updates of what a replica holds move the memory to a new position; a change of where it is
-- visible first leaves a tombstone for the old place (a smaller position than the new one, so
-- a feed that still shows the memory drops it and takes it back). Status changes of
-- background processing name none of these columns: the trigger does not even run.
CREATE FUNCTION memories_sync_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.content, OLD.type, OLD.metadata, OLD.context, OLD.acl_read, OLD.acl_write, OLD.consent, OLD.risk,
      OLD.namespace_id, OLD.user_id, OLD.external_user_id)
     IS NOT DISTINCT FROM
     (NEW.content, NEW.type, NEW.metadata, NEW.context, NEW.acl_read, NEW.acl_write, NEW.consent, NEW.risk,
      NEW.namespace_id, NEW.user_id, NEW.external_user_id) THEN
    RETURN NEW;
  END IF;
  IF (OLD.namespace_id, OLD.user_id, OLD.acl_read, OLD.risk)
     IS DISTINCT FROM (NEW.namespace_id, NEW.user_id, NEW.acl_read, NEW.risk) THEN
    INSERT INTO memory_tombstones (organization_id, memory_id, namespace_id, user_id, acl_read, risk, reason)
    VALUES (OLD.organization_id, OLD.id, OLD.namespace_id, OLD.user_id, OLD.acl_read, OLD.risk, 'moved');
  END IF;
  NEW.sync_xid := pg_current_xact_id()::text::bigint;
  NEW.sync_seq := nextval('memory_sync_seq');
  RETURN NEW;
END $$;
CREATE TRIGGER memories_sync_update
  BEFORE UPDATE OF content, type, metadata, context, acl_read, acl_write, consent, risk, namespace_id, user_id,
    external_user_id ON memories
  FOR EACH ROW EXECUTE FUNCTION memories_sync_update();

-- Sync tiers count how often each memory was retrieved by a user over a window.
CREATE INDEX query_log_user_idx ON query_log (organization_id, user_id, created_at DESC);

-- OMO import (skip_duplicates) finds an already imported object by the id it kept. Partial: only
-- imported memories carry metadata.omo_id, so other writes do not maintain this index.
CREATE INDEX memories_omo_id_idx ON memories (organization_id, (metadata->>'omo_id')) WHERE metadata ? 'omo_id';
