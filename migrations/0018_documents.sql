-- Document uploads (POST /v1/document; docs/documents.md). The file is stored here first, in
-- the same transaction as its upload row and its processing job, so a crash after the 200 never
-- loses it; it is dropped once processing ends. Each chunk made into a memory is recorded in
-- document_chunks with its index: a job that resumes after a crash skips what is there, so no
-- chunk is stored twice or lost. The upload's id is also the batch id of its memories.
CREATE TABLE document_uploads (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  namespace_id    text REFERENCES namespaces(id) ON DELETE CASCADE,
  user_id         text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  filename        text NOT NULL,
  format          text NOT NULL,
  mime            text NOT NULL,
  size_bytes      integer NOT NULL,
  -- The memory write's fields for every chunk (policy, metadata, schema …) and the parse options.
  options         jsonb NOT NULL DEFAULT '{}',
  -- The webhook to call when the document completes or fails ({url, secret}), or null.
  webhook         jsonb,
  -- 'queued', 'processing', 'completed' (every chunk stored; the memories' processing is read
  -- from their batch), 'failed' or 'cancelled'.
  status          text NOT NULL,
  error           text,
  total_pages     integer,
  pages_done      integer NOT NULL DEFAULT 0,
  chunks_total    integer,
  chunks_stored   integer NOT NULL DEFAULT 0,
  skipped_pages   jsonb NOT NULL DEFAULT '[]',
  -- Pages whose text came from OCR.
  ocr_pages       jsonb NOT NULL DEFAULT '[]',
  -- The timeline: step id → {status, started_at, completed_at, progress, error}.
  steps           jsonb NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_uploads_user_idx ON document_uploads (organization_id, user_id);
CREATE INDEX document_uploads_namespace_idx ON document_uploads (namespace_id) WHERE namespace_id IS NOT NULL;

CREATE TABLE document_files (
  upload_id text PRIMARY KEY REFERENCES document_uploads(id) ON DELETE CASCADE,
  bytes     bytea NOT NULL
);

CREATE TABLE document_chunks (
  upload_id   text NOT NULL REFERENCES document_uploads(id) ON DELETE CASCADE,
  chunk_index integer NOT NULL,
  memory_id   text REFERENCES memories(id) ON DELETE SET NULL,
  page_start  integer NOT NULL,
  page_end    integer NOT NULL,
  -- Why the memory write refused this chunk (its memory_id is then null).
  error       text,
  PRIMARY KEY (upload_id, chunk_index)
);
