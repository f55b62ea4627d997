-- Memories and their searchable chunks.
CREATE TABLE memories (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  namespace_id     text REFERENCES namespaces(id) ON DELETE CASCADE,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  external_user_id text,
  content          text NOT NULL,
  type             text NOT NULL DEFAULT 'text',
  metadata         jsonb NOT NULL DEFAULT '{}'::jsonb,
  context          jsonb,
  policy           jsonb NOT NULL DEFAULT '{}'::jsonb,
  acl_read         text[] NOT NULL DEFAULT '{}',
  acl_write        text[] NOT NULL DEFAULT '{}',
  consent          text NOT NULL DEFAULT 'implicit',
  risk             text NOT NULL DEFAULT 'none',
  status           text NOT NULL DEFAULT 'queued',
  status_error     text,
  batch_id         text,
  content_bytes    int NOT NULL,
  -- metadata.createdAt: when the remembered thing happened (session time), if given.
  occurred_at      timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memories_user_idx ON memories (organization_id, user_id, created_at DESC);
CREATE INDEX memories_namespace_idx ON memories (organization_id, namespace_id);
CREATE INDEX memories_metadata_idx ON memories USING gin (metadata jsonb_path_ops);
CREATE INDEX memories_batch_idx ON memories (batch_id) WHERE batch_id IS NOT NULL;

-- One row per embedder-sized piece of a memory. The scope columns are copied from the
-- memory so the common filters (tenant, namespace, user) need no join in the hot path.
-- terms: our analyser's stemmed terms as a tsvector (positions give term frequency).
-- embedding / embedding2: the primary and secondary dense signals; the *_model columns
-- name the model so vectors of different models are never compared (vector HNSW indexes
-- are partial on the model and created at start-up for the configured dimensions).
CREATE TABLE memory_chunks (
  id               text PRIMARY KEY,
  memory_id        text NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  organization_id  text NOT NULL,
  namespace_id     text,
  user_id          text NOT NULL,
  chunk_index      int NOT NULL,
  text             text NOT NULL,
  terms            tsvector NOT NULL,
  doc_len          int NOT NULL,
  embedding        vector,
  embedding_model  text,
  embedding2       vector,
  embedding2_model text,
  UNIQUE (memory_id, chunk_index)
);
CREATE INDEX memory_chunks_user_idx ON memory_chunks (organization_id, user_id) INCLUDE (doc_len);
CREATE INDEX memory_chunks_namespace_idx ON memory_chunks (organization_id, namespace_id);
CREATE INDEX memory_chunks_terms_idx ON memory_chunks USING gin (terms);

-- One row per search: the search_id the response carries.
CREATE TABLE query_log (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  namespace_id     text,
  user_id          text,
  api_key_id       text,
  query            text NOT NULL,
  params           jsonb NOT NULL DEFAULT '{}'::jsonb,
  result_count     int NOT NULL,
  latency_ms       real NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX query_log_org_idx ON query_log (organization_id, created_at DESC);
