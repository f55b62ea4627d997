/**
 * One call with valid input for every method of the official client (@papr/memory 2.8.0), in an
 * order that respects their dependencies (a memory before its get, a search before feedback on
 * its search_id, a namespace before its key, a domain before its retrieve …). The table's names
 * are the client's own method paths; test/contract-every-method.test.ts checks them against a
 * walk of the client object at run time, so a method can be neither forgotten nor invented here.
 */
import type Papr from '@papr/memory';

/** What the calls share: clients, ids from earlier answers, and the world around the server. */
export interface CallContext {
  /** The organization key's client (maxRetries 0), its methods recorded. */
  client: Papr;
  /** A client without the key (a bearer token or nothing), its methods recorded the same way. */
  keyless(bearerToken?: string): Papr;
  /** Ids handed from one call to the next. */
  ids: Record<string, string>;
  /** The loopback OpenID provider: signs `sub` in and returns its redirect to our callback. */
  authorize(redirectUrl: string, sub: string): Promise<URL>;
  /** Starts the job worker (once; later calls do nothing). */
  startWorker(): Promise<void>;
}

export interface MethodCall {
  /** The client's method path, e.g. `messages.sessions.compress`. */
  method: string;
  /** The documented non-2xx answer, when that is the honest one (the instance-config 501). */
  expect?: 501;
  run(c: CallContext): Promise<unknown>;
}

const USER = 'every-ana';
const SESSION = 'every-porto';
const NEO4J = { bolt_url: 'neo4j+s://x.databases.neo4j.io', password: 'pw' };
/** The six instance-config calls go out with the client's default retries, to see it not retry a 501. */
const RETRYING = { maxRetries: 2 };

/** Memory, feedback, OMO and sync, users, schemas, namespaces and instance config. */
export const storeCalls: MethodCall[] = [
  // memory
  call('memory.add', async ({ client, ids }) => {
    const r = await client.memory.add({
      content: 'Ana moved to Porto in March and works at a design studio by the river.',
      external_user_id: USER,
      metadata: { category: 'fact', topics: ['moving'], customMetadata: { city: 'Porto' } },
      context: [{ role: 'user', content: 'Remember where I live now' }],
    });
    ids.memory = r.data![0].memoryId;
  }),
  call('memory.addBatch', async ({ client, ids }) => {
    const r = await client.memory.addBatch({
      external_user_id: USER,
      memories: [{ content: 'Ana learns Portuguese on Tuesdays.' }, { content: 'Ana cycles to the studio.' }],
      batch_size: 2,
    });
    ids.batch = r.batch_id!;
  }),
  call('memory.get', ({ client, ids }) => client.memory.get(ids.memory)),
  call('memory.update', ({ client, ids }) =>
    client.memory.update(ids.memory, { content: 'Ana moved to Porto in March; she works at a riverside studio.' }),
  ),
  call('memory.retrieveStatus', ({ client, ids }) => client.memory.retrieveStatus(ids.memory)),
  call('memory.retrieveBatchStatus', ({ client, ids }) => client.memory.retrieveBatchStatus(ids.batch)),
  call('memory.search', async ({ client, ids }) => {
    const r = await client.memory.search({ query: 'Where does Ana live?', external_user_id: USER, max_memories: 5 });
    ids.search = r.search_id!;
    ids.cited = r.data!.memories[0].id;
  }),
  // feedback
  call('feedback.submit', async ({ client, ids }) => {
    const r = await client.feedback.submit({
      search_id: ids.search,
      feedbackData: { feedbackType: 'thumbs_up', feedbackSource: 'inline', citedMemoryIds: [ids.cited] },
      external_user_id: USER,
    });
    ids.feedback = r.feedback_id!;
  }),
  call('feedback.getByID', ({ client, ids }) => client.feedback.getByID(ids.feedback)),
  call('feedback.submitBatch', ({ client, ids }) =>
    client.feedback.submitBatch({
      feedback_items: [
        {
          search_id: ids.search,
          feedbackData: { feedbackType: 'rating', feedbackSource: 'session_end', feedbackScore: 4 },
        },
      ],
      session_context: { session: SESSION },
    }),
  ),
  // omo, sync
  call('omo.exportMemories', ({ client, ids }) => client.omo.exportMemories({ memory_ids: [ids.memory] })),
  call('omo.exportMemoriesAsJson', ({ client, ids }) => client.omo.exportMemoriesAsJson({ memory_ids: ids.memory })),
  call('omo.importMemories', async ({ client, ids }) => {
    const exported = await client.omo.exportMemories({ memory_ids: [ids.memory] });
    const memory = { ...exported.memories[0], id: 'omo-every-1', content: 'Ana prefers window seats on trains.' };
    return client.omo.importMemories({ memories: [memory], skip_duplicates: true });
  }),
  call('sync.getTiers', async ({ client, ids }) => {
    const r = await client.sync.getTiers({ external_user_id: USER, max_tier0: 5, max_tier1: 5 });
    ids.cursor = r.next_cursor!;
  }),
  call('sync.getDelta', ({ client, ids }) => client.sync.getDelta({ cursor: ids.cursor, limit: 10 })),
  call('memory.delete', ({ client, ids }) => client.memory.delete(ids.memory)),
  call('memory.deleteAll', ({ client }) => client.memory.deleteAll({ external_user_id: USER })),
  // user
  call('user.create', async ({ client, ids }) => {
    const r = await client.user.create({ external_id: 'every-bea', email: 'bea@example.com', type: 'user' });
    ids.user = r.user_id!;
  }),
  call('user.createBatch', ({ client }) =>
    client.user.createBatch({ users: [{ external_id: 'every-caio' }, { external_id: 'every-dora', type: 'agent' }] }),
  ),
  call('user.list', ({ client }) => client.user.list({ page: 1, page_size: 10 })),
  call('user.get', ({ client, ids }) => client.user.get(ids.user)),
  call('user.update', ({ client, ids }) => client.user.update(ids.user, { metadata: { team: 'design' } })),
  call('user.delete', ({ client }) => client.user.delete('every-dora', { is_external: true })),
  // schemas
  call('schemas.create', async ({ client, ids }) => {
    const r = await client.schemas.create({
      name: 'Studio CRM',
      description: 'People and the studios they work at',
      node_types: {
        Person: { name: 'Person', label: 'Person', properties: { name: { type: 'string', required: true } } },
        Studio: { name: 'Studio', label: 'Studio', properties: { name: { type: 'string', required: true } } },
      },
      relationship_types: {
        WORKS_AT: {
          name: 'WORKS_AT',
          label: 'Works at',
          allowed_source_types: ['Person'],
          allowed_target_types: ['Studio'],
        },
      },
    });
    ids.schema = r.data!.id!;
  }),
  call('schemas.retrieve', ({ client, ids }) => client.schemas.retrieve(ids.schema)),
  call('schemas.update', ({ client, ids }) => client.schemas.update(ids.schema, { body: { status: 'active' } })),
  call('schemas.list', ({ client }) => client.schemas.list({ status_filter: 'active' })),
  call('schemas.delete', ({ client, ids }) => client.schemas.delete(ids.schema)),
  // namespace and instance config
  call('namespace.create', async ({ client, ids }) => {
    const r = await client.namespace.create({ name: 'every-staging', environment_type: 'staging' });
    ids.namespace = r.data!.objectId!;
  }),
  call('namespace.createAPIKey', ({ client, ids }) =>
    client.namespace.createAPIKey(ids.namespace, { name: 'ci', environment: 'staging', permissions: ['read'] }),
  ),
  call('namespace.retrieve', ({ client, ids }) => client.namespace.retrieve(ids.namespace)),
  call('namespace.update', ({ client, ids }) => client.namespace.update(ids.namespace, { is_active: true })),
  call('namespace.list', ({ client }) => client.namespace.list({ limit: 10, skip: 0 })),
  instance('namespace.instance.retrieve', ({ client, ids }) =>
    client.namespace.instance.retrieve(ids.namespace, RETRYING),
  ),
  instance('namespace.instance.update', ({ client, ids }) =>
    client.namespace.instance.update(ids.namespace, { neo4j: NEO4J, provider: 'gcp', region: 'us-west1' }, RETRYING),
  ),
  instance('namespace.instance.delete', ({ client, ids }) => client.namespace.instance.delete(ids.namespace, RETRYING)),
  instance('organization.instance.retrieve', ({ client }) => client.organization.instance.retrieve(RETRYING)),
  instance('organization.instance.update', ({ client }) =>
    client.organization.instance.update({ neo4j: NEO4J, provider: 'gcp', region: 'us-west1' }, RETRYING),
  ),
  instance('organization.instance.delete', ({ client }) => client.organization.instance.delete(RETRYING)),
  call('namespace.delete', ({ client, ids }) => client.namespace.delete(ids.namespace, { delete_memories: true })),
];

/** A call expected to answer 2xx. */
export function call(method: string, run: MethodCall['run']): MethodCall {
  return { method, run };
}

/** A call whose documented answer is the instance-config 501 (docs/tenancy.md). */
export function instance(method: string, run: MethodCall['run']): MethodCall {
  return { method, expect: 501, run };
}
