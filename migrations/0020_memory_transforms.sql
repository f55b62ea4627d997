-- Graph-transform artifacts of memories written with policy.transform_embedding auto or manual
-- (docs/transform.md). Made in the memory's job and scored by the svc_enhanced / svc_max search
-- providers. Vectors are stored as int8 with their scales, the precision artifacts are scored
-- at, so a stored artifact scores exactly like one computed on the fly (about 6 KB a memory
-- with 14 bands of 384 dimensions, a quarter of float32).
CREATE TABLE memory_transforms (
  memory_id       text PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain_id       text NOT NULL,
  -- 'sbert' or 'qwen', and the band extractor's id ('bands-local-1', 'bands-llm:<model>').
  signal_embedder text NOT NULL,
  band_extractor  text NOT NULL,
  -- Band name → extracted text, in the domain's frequency order.
  signals         jsonb NOT NULL,
  phases          jsonb NOT NULL,
  base            bytea NOT NULL,
  base_scale      double precision NOT NULL,
  -- The band vectors, one after another (band_dims bytes each).
  bands           bytea NOT NULL,
  band_scales     jsonb NOT NULL,
  band_dims       integer NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
