import { z } from 'zod';

/**
 * PUT …/instance body (client `InstanceUpdateParams`): validated so a malformed request is a 422
 * like anywhere else, then answered 501 (instance.service.ts). Nothing of it is stored.
 */
export const instanceConfigBody = z
  .object({
    neo4j: z
      .object({
        bolt_url: z.string().min(1).max(2048).describe('Bolt URL of the Neo4j instance (not used: see docs)'),
        password: z.string().max(1024).describe('Its password (never stored or logged)'),
        graphql_endpoint: z.string().max(2048).optional().describe('Its hosted GraphQL endpoint'),
        username: z.string().max(256).optional().describe('Its user name'),
      })
      .optional()
      .describe('A dedicated Neo4j instance: Engram keeps its graph in its own PostgreSQL (docs/tenancy.md)'),
    provider: z.string().max(64).optional().describe('Cloud provider of the instance'),
    region: z.string().max(64).optional().describe('Cloud region of the instance'),
  })
  // A PUT may come without a body (null here): the answer is the same 501.
  .nullish()
  .describe('A dedicated graph instance configuration (not supported: answered 501)');

export const instanceConfigQuery = z.object({
  validate: z.stringbool().optional().describe('Test the connection before saving (not supported: answered 501)'),
});
