-- The knowledge graph (docs/graph.md). Nodes are shared within an organization and namespace
-- (the same "Ana" from two memories is one node); who may see a node follows from the memories
-- linked to it, so every graph read joins through memory_nodes to memories and their scope.
CREATE TABLE graph_nodes (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- '' for memories outside any namespace, so the dedupe key below can be a plain unique index.
  namespace_key    text NOT NULL DEFAULT '',
  type             text NOT NULL,
  name             text NOT NULL,
  -- lower-cased, whitespace-collapsed name: the identity used to deduplicate within a type.
  canonical_key    text NOT NULL,
  properties       jsonb NOT NULL DEFAULT '{}'::jsonb,
  schema_id        text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX graph_nodes_identity ON graph_nodes (organization_id, namespace_key, type, canonical_key);
CREATE INDEX graph_nodes_key_idx ON graph_nodes (organization_id, canonical_key);
CREATE INDEX graph_nodes_properties_idx ON graph_nodes USING gin (properties jsonb_path_ops);

-- Which memories mention (or were linked to) which nodes.
CREATE TABLE memory_nodes (
  memory_id        text NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  node_id          text NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
  organization_id  text NOT NULL,
  PRIMARY KEY (memory_id, node_id)
);
CREATE INDEX memory_nodes_node_idx ON memory_nodes (node_id);

-- Relationships, each recorded with the memory that produced it (deleting the memory removes
-- its relationships; the same fact from two memories is two rows, one per source).
CREATE TABLE graph_edges (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  source_id        text NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
  target_id        text NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
  type             text NOT NULL,
  properties       jsonb NOT NULL DEFAULT '{}'::jsonb,
  memory_id        text NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (memory_id, source_id, target_id, type)
);
CREATE INDEX graph_edges_source_idx ON graph_edges (source_id, type);
CREATE INDEX graph_edges_target_idx ON graph_edges (target_id, type);

-- A node no memory links to any more is gone with its last link (deleting a memory, a user's
-- memories or a namespace prunes the graph without a separate sweep).
CREATE FUNCTION graph_prune_node() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM graph_nodes n WHERE n.id = OLD.node_id AND NOT EXISTS (SELECT 1 FROM memory_nodes m WHERE m.node_id = OLD.node_id);
  RETURN NULL;
END $$;
CREATE TRIGGER memory_nodes_prune AFTER DELETE ON memory_nodes FOR EACH ROW EXECUTE FUNCTION graph_prune_node();
