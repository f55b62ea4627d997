/**
 * Mutations: the memories service's add, update and delete, with the REST bodies' own zod
 * schemas (addMemoryBody, updateMemoryBody) checking the input, so a bad input is refused for
 * the same reasons and with the same status as over REST (in extensions.code).
 */
import type { z } from 'zod';
import { stripNulls } from '../../platform/http/normalise.ts';
import { unprocessable } from '../../shared/errors.ts';
import { addMemoryBody, toMemoryObject, updateMemoryBody, type MemoriesModule } from '../memories/index.ts';
import { idArgs, parseArgs } from './graphql.schemas.ts';
import type { GraphqlContext } from './graphql.resolvers.ts';
import { memoryView } from './graphql.views.ts';

type Args = Record<string, unknown>;

/** GraphQL input field → REST body field (the rest are named alike). */
const REST_NAMES: Record<string, string> = {
  externalUserId: 'external_user_id',
  namespaceId: 'namespace_id',
  memoryPolicy: 'memory_policy',
};
const GRAPHQL_NAMES = Object.fromEntries(Object.entries(REST_NAMES).map(([g, r]) => [r, g]));

/**
 * The REST body an input stands for, checked by the REST schema. GraphQL `null` (also inside
 * JSON values) means absent, as REST treats it.
 */
function restBody<T extends z.ZodType>(schema: T, input: unknown, omit: string[] = []): z.infer<T> {
  const given = (stripNulls(input ?? {}) ?? {}) as Record<string, unknown>;
  const body = Object.fromEntries(
    Object.entries(given)
      .filter(([k]) => !omit.includes(k))
      .map(([k, v]) => [REST_NAMES[k] ?? k, v]),
  );
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => {
    const [head, ...rest] = i.path.map(String);
    return { field: head ? ['input', GRAPHQL_NAMES[head] ?? head, ...rest].join('.') : 'input', message: i.message };
  });
  throw unprocessable(`Invalid input: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, { issues });
}

/** Mutation resolvers and the lazily read memory of an added one. */
export function mutationResolvers(memories: Pick<MemoriesModule['service'], 'get' | 'add' | 'update' | 'delete'>) {
  return {
    Mutation: {
      addMemory: async (_: unknown, args: Args, { actor }: GraphqlContext) => {
        const input = (args.input ?? {}) as { skipBackgroundProcessing?: boolean | null };
        const body = restBody(addMemoryBody, input, ['skipBackgroundProcessing']);
        const added = await memories.add(actor, body, {
          skipBackgroundProcessing: input.skipBackgroundProcessing ?? undefined,
        });
        return { id: added.memoryId, createdAt: added.createdAt, memoryChunkIds: added.memoryChunkIds };
      },

      updateMemory: async (_: unknown, args: Args, { actor }: GraphqlContext) => {
        const { id } = parseArgs(idArgs, { id: args.id });
        const u = await memories.update(actor, id, restBody(updateMemoryBody, args.input));
        return { id: u.row.id, updatedAt: u.updatedAt, memory: memoryView(toMemoryObject(u.row)) };
      },

      deleteMemory: async (_: unknown, args: Args, { actor }: GraphqlContext) => {
        const { id } = parseArgs(idArgs, { id: args.id });
        await memories.delete(actor, id);
        return { id, deleted: true };
      },
    },

    AddedMemory: {
      // Read only when asked for: a write-only key may add without being able to read back.
      memory: async (added: { id: string }, _: Args, { actor }: GraphqlContext) =>
        memoryView(await memories.get(actor, added.id)),
    },
  };
}
