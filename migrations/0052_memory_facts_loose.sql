-- A memory that no rule reads and whose attribute only the mixed similarity names (the primary
-- embedder alone disagreeing) keeps that reading as a loose statement (docs/truth.md, "Loose
-- statements"). It never retires or is retired, never names the owner; search lets it answer a
-- question about its attribute only when it is newer than the answer and already on the page.
ALTER TABLE memory_facts ADD COLUMN loose boolean NOT NULL DEFAULT false;
