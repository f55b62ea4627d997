-- A memory's graph plan, resolved once when it is written (its policy, link_to, the deprecated
-- forms and the named schema's memory_policy): the background step builds from it instead of
-- resolving the policy again. NULL for memories written before; their job resolves it then.
ALTER TABLE memories ADD COLUMN graph_plan jsonb;
