-- The vector indexes of the default local models, created with the schema instead of at every
-- start (src/modules/search/dense.store.ts, vectorIndexes: same names, same definitions, so a
-- store whose server already built them keeps them). Another configured model's indexes (an
-- OpenAI-compatible or ONNX model of other dimensions) are still built at start-up, once.
--
-- USE lite (primary, use-lite-512): the partial HNSW index for large scopes, and the per-user
-- scan index that carries the vector for the exact scan of one user's chunks.
CREATE INDEX IF NOT EXISTS memory_chunks_embedding_use_lite_512_512 ON memory_chunks
  USING hnsw ((embedding::vector(512)) vector_cosine_ops)
  WHERE embedding_model = 'use-lite-512';
CREATE INDEX IF NOT EXISTS memory_chunks_scan_use_lite_512_512 ON memory_chunks (organization_id, user_id)
  INCLUDE (memory_id, embedding) WHERE embedding_model = 'use-lite-512';
-- GloVe SIF (secondary, glove-sif-100): HNSW only, built sparser (its vectors are carried by
-- memory_chunks_user_scan_idx, migration 0011).
CREATE INDEX IF NOT EXISTS memory_chunks_embedding2_glove_sif_100_100 ON memory_chunks
  USING hnsw ((embedding2::vector(100)) vector_cosine_ops) WITH (m = 8, ef_construction = 32)
  WHERE embedding2_model = 'glove-sif-100';
