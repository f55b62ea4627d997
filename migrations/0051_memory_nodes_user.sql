-- The agentic walk reads the searching user's graph (docs/graph.md, "Search"): which memories of
-- that user link a node, through an index, rather than every link the node has in the
-- organization. Nodes stay shared within an organization and namespace; a link belongs to its
-- memory's user, which never changes.
ALTER TABLE memory_nodes ADD COLUMN user_id text;
UPDATE memory_nodes mn SET user_id = m.user_id FROM memories m WHERE m.id = mn.memory_id;
ALTER TABLE memory_nodes ALTER COLUMN user_id SET NOT NULL;
CREATE INDEX memory_nodes_node_user_idx ON memory_nodes (node_id, user_id);
-- The new index leads with node_id, so it serves every read by node alone as well.
DROP INDEX memory_nodes_node_idx;
