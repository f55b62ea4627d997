import { z } from 'zod';
import { unprocessable } from '../../shared/errors.ts';

/** Longest query text accepted (characters); longer is a 422 before anything parses it. */
export const MAX_QUERY_CHARS = 100_000;

/** The HTTP request of POST /v1/graphql (GraphQL over HTTP, JSON). */
export const graphqlRequest = z
  .object({
    query: z
      .string()
      .min(1, 'query must not be empty')
      .max(MAX_QUERY_CHARS)
      .describe(`The GraphQL document (at most ${MAX_QUERY_CHARS} characters)`),
    variables: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Values of the variables the document declares (null or absent: none)'),
    operationName: z
      .string()
      .max(512)
      .optional()
      .describe('Which operation of the document to run, when it has several'),
    extensions: z.record(z.string(), z.unknown()).optional().describe('Accepted and ignored'),
  })
  .describe('A GraphQL request: {query, variables, operationName}');
export type GraphqlRequest = z.infer<typeof graphqlRequest>;

const graphqlError = z.looseObject({
  message: z.string().describe('What went wrong'),
  locations: z
    .array(
      z.object({
        line: z.number().int().describe('Line in the document, from 1'),
        column: z.number().int().describe('Column in the line, from 1'),
      }),
    )
    .optional()
    .describe('Where in the document'),
  path: z
    .array(z.union([z.string(), z.number()]))
    .optional()
    .describe('The response field that failed'),
  extensions: z
    .looseObject({
      code: z
        .number()
        .int()
        .describe('The HTTP status the REST API answers for the same problem (400, 403, 404, 422, 500 …)'),
      details: z.unknown().optional().describe('What the REST envelope would carry in details'),
    })
    .describe('code: the REST status of the problem'),
});

/** The GraphQL response (HTTP 200 whenever the request was a well-formed GraphQL request). */
export const graphqlResponse = z
  .object({
    data: z
      .unknown()
      .optional()
      .describe('The result; absent when the request failed before execution (syntax, validation, limits)'),
    errors: z.array(graphqlError).optional().describe('Problems, each with extensions.code; absent when none'),
  })
  .describe('GraphQL response: {data, errors}');

/** Page sizes and bounds of the schema's arguments (the cost analysis multiplies by them). */
export const LIMITS = {
  memoriesFirst: 100,
  searchMemories: 200,
  searchNodes: 200,
  graphNodes: 200,
  graphRelationships: 500,
  usersFirst: 100,
  usersPage: 10_000,
  namespacesFirst: 100,
  namespacesSkip: 1_000_000,
  /** How many of the user's newest memories a graph is read from. */
  graphMemories: 200,
} as const;

const id = z.string().min(1).max(512);
const name = z.string().max(512);

export const memoriesArgs = z.object({
  externalUserId: name.optional(),
  namespaceId: id.optional(),
  first: z.number().int().min(1).max(LIMITS.memoriesFirst),
  after: z.string().max(1000).optional(),
});

export const searchArgs = z.object({
  query: z.string().trim().min(1, 'query must not be empty').max(10_000),
  externalUserId: name.optional(),
  namespaceId: id.optional(),
  maxMemories: z.number().int().min(1).max(LIMITS.searchMemories),
  maxNodes: z.number().int().min(0).max(LIMITS.searchNodes),
  enableAgenticGraph: z.boolean(),
});

export const graphArgs = z.object({
  externalUserId: name.optional(),
  namespaceId: id.optional(),
  maxNodes: z.number().int().min(0).max(LIMITS.graphNodes),
  maxRelationships: z.number().int().min(0).max(LIMITS.graphRelationships),
});

export const usersArgs = z.object({
  externalId: name.optional(),
  email: z.string().max(320).optional(),
  first: z.number().int().min(1).max(LIMITS.usersFirst),
  page: z.number().int().min(1).max(LIMITS.usersPage),
});

export const namespacesArgs = z.object({
  first: z.number().int().min(1).max(LIMITS.namespacesFirst),
  skip: z.number().int().min(0).max(LIMITS.namespacesSkip),
});

export const idArgs = z.object({ id });

/**
 * Arguments checked like a REST request: a value out of bounds is a 422 (in the GraphQL error's
 * extensions.code), with each problem named. GraphQL `null` means absent, as in REST.
 */
export function parseArgs<T extends z.ZodType>(schema: T, args: Record<string, unknown>): z.infer<T> {
  const present = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.') || null, message: i.message }));
  throw unprocessable(`Invalid arguments: ${issues.map((i) => `${i.field ?? 'input'}: ${i.message}`).join('; ')}`, {
    issues,
  });
}
