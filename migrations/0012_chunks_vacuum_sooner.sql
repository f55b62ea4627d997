-- A search reads a user's chunks through index-only scans (BM25's statistics and the secondary
-- vectors from memory_chunks_user_scan_idx, the primary vector from the per-model scan index),
-- and an index-only scan visits the heap for every page not yet marked all-visible, which only
-- VACUUM does. An insert-mostly table is vacuumed after 20 % growth by default: on the 100k
-- bench store, 17k chunks after the last vacuum left 9 % of the pages unmarked, and the planner
-- then read the primary vectors from the heap through the other index (4.9 instead of 3.1 ms a
-- search on a 2-core machine). Vacuuming after 2 % growth keeps nearly every page
-- marked; an insert-only vacuum skips the marked pages, so each costs about its new rows.
-- Autovacuum honours the option, and so does our own pass where it runs (platform/db/vacuum.ts).
ALTER TABLE memory_chunks SET (autovacuum_vacuum_insert_scale_factor = 0.02);
