-- Which memories a search returned, in order: feedback on a search (citedMemoryIds) and sync's
-- "frequently retrieved" tier read them. Written with the query-log row, after the reply.
ALTER TABLE query_log ADD COLUMN result_ids text[] NOT NULL DEFAULT '{}';
