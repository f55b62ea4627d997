-- BM25 per user from postings instead of from the user's whole scope (docs/retrieval.md).
--
-- Before, BM25 read every chunk of the searched user to count N and the average length, and
-- then matched the query's terms against each chunk's tsvector (or, for a large scope,
-- intersected the store-wide GIN matches of common words with the scope): its cost grew with
-- the user's chunks (a user of the 1M bench store holds 10k). Now:
--
-- memory_chunk_terms: one row per (chunk, distinct term) carrying the term frequency and the
--   chunk's length, keyed by organization, user and term: a user's matches for a query are
--   one index-only range per query term, and the document frequencies within the scope are
--   their counts (exact, in the search's own snapshot).
-- memory_term_stats: per (organization, user, namespace) the number of chunks and their total
--   length, so N and avgdl are one row (a handful for a user in several namespaces).
--
-- Both are written only by the triggers below, in the writer's transaction and statement:
-- every INSERT, DELETE (also a cascade from a memory, user or organization) and UPDATE of
-- memory_chunks changes them with it, so a search never sees statistics of another state than
-- the chunks it reads. The statistics rows are upserted in key order, so two writers touching
-- the same users take the row locks in the same order and wait for each other instead of
-- deadlocking. Scopes these cannot answer (memories shared by others, metadata, ACL or safety
-- filters) are scored by the statement over memory_chunks as before, with the same result.
CREATE TABLE memory_chunk_terms (
  organization_id text NOT NULL,
  user_id         text NOT NULL,
  lexeme          text NOT NULL,
  chunk_id        text NOT NULL,
  memory_id       text NOT NULL,
  namespace_id    text,
  tf              int NOT NULL,
  doc_len         int NOT NULL,
  PRIMARY KEY (organization_id, user_id, lexeme, chunk_id) INCLUDE (memory_id, namespace_id, tf, doc_len)
);
-- Searches read only the index (all-visible pages); the table is insert-mostly like the chunks.
ALTER TABLE memory_chunk_terms SET (autovacuum_vacuum_insert_scale_factor = 0.02);

CREATE TABLE memory_term_stats (
  organization_id text NOT NULL,
  user_id         text NOT NULL,
  -- '' for chunks outside any namespace (a primary key column cannot be NULL).
  namespace_key   text NOT NULL,
  chunks          bigint NOT NULL,
  total_len       bigint NOT NULL,
  PRIMARY KEY (organization_id, user_id, namespace_key)
);

-- Postings of a set of chunk rows (a transition table), and their statistics as deltas.
CREATE FUNCTION memory_chunks_terms_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_chunk_terms (organization_id, user_id, lexeme, chunk_id, memory_id, namespace_id, tf, doc_len)
  SELECT n.organization_id, n.user_id, t.lexeme, n.id, n.memory_id, n.namespace_id,
         coalesce(array_length(t.positions, 1), 1), n.doc_len
  FROM new_chunks n, unnest(n.terms) AS t;
  INSERT INTO memory_term_stats AS s (organization_id, user_id, namespace_key, chunks, total_len)
  SELECT organization_id, user_id, coalesce(namespace_id, ''), count(*), sum(doc_len)
  FROM new_chunks GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (organization_id, user_id, namespace_key)
  DO UPDATE SET chunks = s.chunks + excluded.chunks, total_len = s.total_len + excluded.total_len;
  RETURN NULL;
END $$;

CREATE FUNCTION memory_chunks_terms_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- By the postings' own key (each term of the old row), not by chunk id: no second index.
  DELETE FROM memory_chunk_terms p USING old_chunks o, unnest(tsvector_to_array(o.terms)) AS t(lexeme)
  WHERE p.organization_id = o.organization_id AND p.user_id = o.user_id AND p.lexeme = t.lexeme
    AND p.chunk_id = o.id;
  -- Negative deltas through the same ordered upsert as the insert: the same lock order for
  -- every writer. (The row exists: its chunks were counted when they were inserted.)
  INSERT INTO memory_term_stats AS s (organization_id, user_id, namespace_key, chunks, total_len)
  SELECT organization_id, user_id, coalesce(namespace_id, ''), -count(*), -sum(doc_len)
  FROM old_chunks GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (organization_id, user_id, namespace_key)
  DO UPDATE SET chunks = s.chunks + excluded.chunks, total_len = s.total_len + excluded.total_len;
  RETURN NULL;
END $$;

-- An UPDATE that changes what the postings carry (terms, length, owner, namespace, memory)
-- moves those chunks: their old postings and statistics out, the new in. Other updates (new
-- vectors from a re-embedding) change nothing here. (A transition table cannot go with an
-- `UPDATE OF column` list, hence the comparison.)
CREATE FUNCTION memory_chunks_terms_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM old_chunks o JOIN new_chunks n USING (id)
    WHERE (o.terms, o.doc_len, o.organization_id, o.user_id, o.namespace_id, o.memory_id)
          IS DISTINCT FROM (n.terms, n.doc_len, n.organization_id, n.user_id, n.namespace_id, n.memory_id)
  ) THEN
    RETURN NULL;
  END IF;
  -- Moving every updated row (changed or not) is correct, and simpler than naming the changed ones again.
  DELETE FROM memory_chunk_terms p USING old_chunks o, unnest(tsvector_to_array(o.terms)) AS t(lexeme)
  WHERE p.organization_id = o.organization_id AND p.user_id = o.user_id AND p.lexeme = t.lexeme
    AND p.chunk_id = o.id;
  INSERT INTO memory_chunk_terms (organization_id, user_id, lexeme, chunk_id, memory_id, namespace_id, tf, doc_len)
  SELECT n.organization_id, n.user_id, t.lexeme, n.id, n.memory_id, n.namespace_id,
         coalesce(array_length(t.positions, 1), 1), n.doc_len
  FROM new_chunks n, unnest(n.terms) AS t;
  -- One delta per key (old rows negative, new rows positive), applied in key order.
  INSERT INTO memory_term_stats AS s (organization_id, user_id, namespace_key, chunks, total_len)
  SELECT organization_id, user_id, namespace_key, sum(dc), sum(dl) FROM (
    SELECT organization_id, user_id, coalesce(namespace_id, '') AS namespace_key, -1 AS dc, -doc_len AS dl
    FROM old_chunks
    UNION ALL
    SELECT organization_id, user_id, coalesce(namespace_id, ''), 1, doc_len FROM new_chunks
  ) x GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (organization_id, user_id, namespace_key)
  DO UPDATE SET chunks = s.chunks + excluded.chunks, total_len = s.total_len + excluded.total_len;
  RETURN NULL;
END $$;

CREATE TRIGGER memory_chunks_terms_insert AFTER INSERT ON memory_chunks
  REFERENCING NEW TABLE AS new_chunks FOR EACH STATEMENT EXECUTE FUNCTION memory_chunks_terms_insert();
CREATE TRIGGER memory_chunks_terms_delete AFTER DELETE ON memory_chunks
  REFERENCING OLD TABLE AS old_chunks FOR EACH STATEMENT EXECUTE FUNCTION memory_chunks_terms_delete();
CREATE TRIGGER memory_chunks_terms_update AFTER UPDATE ON memory_chunks
  REFERENCING OLD TABLE AS old_chunks NEW TABLE AS new_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION memory_chunks_terms_update();

-- The chunks already stored.
INSERT INTO memory_chunk_terms (organization_id, user_id, lexeme, chunk_id, memory_id, namespace_id, tf, doc_len)
SELECT c.organization_id, c.user_id, t.lexeme, c.id, c.memory_id, c.namespace_id,
       coalesce(array_length(t.positions, 1), 1), c.doc_len
FROM memory_chunks c, unnest(c.terms) AS t;
INSERT INTO memory_term_stats (organization_id, user_id, namespace_key, chunks, total_len)
SELECT organization_id, user_id, coalesce(namespace_id, ''), count(*), sum(doc_len)
FROM memory_chunks GROUP BY 1, 2, 3;
