-- Tenancy administration (issue #5).
--
-- memories.namespace_id no longer cascades: deleting a namespace must never remove
-- memories behind the service's back. DELETE /v1/namespace/{id} either deletes them
-- (and counts them) or detaches them (namespace_id = NULL) before the namespace row
-- goes; NO ACTION (checked at statement end) still lets an organization's own cascade
-- delete its namespaces and memories together.
ALTER TABLE memories DROP CONSTRAINT memories_namespace_id_fkey;
ALTER TABLE memories ADD CONSTRAINT memories_namespace_id_fkey
  FOREIGN KEY (namespace_id) REFERENCES namespaces(id) ON DELETE NO ACTION;

-- ACL entries are looked up by value: namespace deletion removes `namespace:<id>` from
-- every memory of the organization, and read/write ACL predicates will use these too.
CREATE INDEX memories_acl_read_idx ON memories USING gin (acl_read);
CREATE INDEX memories_acl_write_idx ON memories USING gin (acl_write);

-- Listing a namespace's keys.
CREATE INDEX api_keys_namespace_idx ON api_keys (namespace_id, created_at) WHERE namespace_id IS NOT NULL;
