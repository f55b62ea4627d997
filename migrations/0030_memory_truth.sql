-- Memories that stay true (docs/truth.md).
--
-- Exact duplicates: a memory's content folded (case, runs of white space, end punctuation) and
-- hashed, per owner. A generated column, kept by PostgreSQL on every insert and update, and
-- the write's lookup folds its own content with the same function, so the two never disagree.
-- The key leads its index, and the lookup asks the index for the key alone (truth.store
-- exactDuplicates): without statistics the planner otherwise preferred the owner's index and
-- compared every memory of the owner for each item looked up.
CREATE FUNCTION engram_content_key(content text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT md5(regexp_replace(regexp_replace(lower(btrim(content)), '\s+', ' ', 'g'), '[\s.!?]+$', '')) $$;
ALTER TABLE memories ADD COLUMN content_key text GENERATED ALWAYS AS (engram_content_key(content)) STORED;
CREATE INDEX memories_content_key_idx ON memories (content_key, organization_id, user_id);

-- Supersession and near-duplicate links between two memories of one owner: `memory_id` is the
-- newer, `prior_id` the older. kind supersedes: prior stopped being true at valid_to (the newer
-- one's time); kind duplicate: memory_id says what prior_id says. Either memory's deletion
-- removes the link, so deleting the newer memory makes the older one current again.
CREATE TABLE memory_lineage (
  prior_id        text NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  memory_id       text NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  organization_id text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('supersedes', 'duplicate')),
  valid_to        timestamptz,
  reason          text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (prior_id, memory_id)
);
CREATE INDEX memory_lineage_memory_idx ON memory_lineage (memory_id);

-- What each memory states about a single-valued attribute (src/modules/memories/facts.ts),
-- kept so that a later memory of the same owner can be compared with it in one lookup.
CREATE TABLE memory_facts (
  memory_id       text NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  organization_id text NOT NULL,
  user_id         text NOT NULL,
  namespace_id    text,
  subject         text NOT NULL,
  slot            text NOT NULL,
  value           text NOT NULL,
  negated         boolean NOT NULL,
  at              timestamptz NOT NULL,
  PRIMARY KEY (memory_id, subject, slot, value, negated)
);
CREATE INDEX memory_facts_owner_idx ON memory_facts (organization_id, user_id, subject, slot);
CREATE INDEX memory_facts_value_idx ON memory_facts (organization_id, user_id, subject, value);

-- Earlier versions of a memory, kept by each PUT that changes what it says (newest has the
-- highest version); the current version is the memory row itself.
CREATE TABLE memory_versions (
  memory_id       text NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  version         integer NOT NULL,
  organization_id text NOT NULL,
  content         text NOT NULL,
  type            text NOT NULL,
  metadata        jsonb NOT NULL,
  context         jsonb,
  valid_from      timestamptz NOT NULL,
  valid_to        timestamptz NOT NULL,
  PRIMARY KEY (memory_id, version)
);
