import { z } from 'zod';

/** A graph node as search results (`data.nodes`) show it. */
export const graphNode = z.object({
  label: z.string().describe('Node type (Person, Organization, a user schema type …)'),
  properties: z
    .record(z.string(), z.unknown())
    .describe('The node id, its name and its stored properties (or only those a search_override asked for)'),
  schema_id: z.string().nullable().optional().describe('The user graph schema the node belongs to, if any'),
});
