-- Keep chunk vectors inside the table row instead of the TOAST table. A 512-d vector is 2 KB,
-- just over the 2 KB at which PostgreSQL moves values out of line, so every vector read by a
-- search (the exact per-user scan the planner picks for a user's few thousand chunks) cost an
-- extra TOAST index lookup and two chunk reads: ~7 buffers per row, measured on the 100k
-- bench store (7 ms warm for 327 rows). Rows below 8160 bytes now stay whole; larger ones (a
-- 2560-d model's 10 KB vectors) are still toasted, so no dimension becomes unstorable.
-- Rows written before this migration stay toasted until `VACUUM FULL memory_chunks` rewrites
-- them (docs/retrieval.md).
ALTER TABLE memory_chunks SET (toast_tuple_target = 8160);
ALTER TABLE memory_chunks ALTER COLUMN embedding SET STORAGE MAIN, ALTER COLUMN embedding2 SET STORAGE MAIN;
