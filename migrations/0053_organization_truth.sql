-- An organization's own defaults for keeping memories true (docs/truth.md, "Per organization"):
-- NULL means the deployment's (MEMORY_DEDUPE, MEMORY_SUPERSEDE); a write's own field still wins.
ALTER TABLE organizations
  ADD COLUMN memory_dedupe text CHECK (memory_dedupe IN ('near', 'exact', 'off')),
  ADD COLUMN memory_supersede text CHECK (memory_supersede IN ('auto', 'off'));
