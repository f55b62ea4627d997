/**
 * GraphQL errors on the wire: `{message, locations, path, extensions: {code, details}}`, where
 * `code` is the HTTP status the REST API answers for the same problem (docs/graphql.md).
 */
import { GraphQLError } from 'graphql';
import { AppError } from '../../shared/errors.ts';

export interface WireError {
  [k: string]: unknown;
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions: { code: number; details?: Record<string, unknown> | null; [k: string]: unknown };
}

/** Logs what a resolver threw that is no AppError (a bug or a store failure), never sent. */
export type ErrorLog = (err: unknown, message: string) => void;

const where = (e: GraphQLError) => ({
  ...(e.locations ? { locations: e.locations.map(({ line, column }) => ({ line, column })) } : {}),
  ...(e.path ? { path: [...e.path] } : {}),
});

/**
 * A field error of an executed operation: a service's AppError keeps its status and details;
 * a GraphQL error outside any field (an operation or variable that does not fit) is the
 * caller's 400; anything else is a 500 whose internals are logged, not sent.
 */
export function fieldError(e: GraphQLError, log: ErrorLog): WireError {
  const original = e.originalError;
  if (original instanceof AppError)
    return { message: original.message, ...where(e), extensions: { code: original.code, details: original.details } };
  if (!original && !e.path) return { message: e.message, ...where(e), extensions: { code: 400 } };
  log(original ?? e, 'a GraphQL resolver failed');
  return { message: 'Internal server error', ...where(e), extensions: { code: 500 } };
}

/**
 * The errors of a request refused before execution (syntax, validation, depth, cost,
 * variables), or null when `err` is no such refusal. Mercurius reports validation and depth
 * problems as MER_ERR_GQL_VALIDATION with the list in `errors`.
 */
export function requestErrors(err: unknown): WireError[] | null {
  const one = (e: unknown): WireError => {
    const message = e instanceof Error ? e.message : String(e);
    const extensions = e instanceof GraphQLError ? { ...e.extensions, code: 400 } : { code: 400 };
    return { message, ...(e instanceof GraphQLError ? where(e) : {}), extensions };
  };
  if (err instanceof GraphQLError) return [one(err)];
  const listed = (err as { code?: unknown; errors?: unknown } | null)?.errors;
  if ((err as { code?: unknown } | null)?.code === 'MER_ERR_GQL_VALIDATION' && Array.isArray(listed))
    return listed.map(one);
  return null;
}
