/**
 * The second half of the table in test/every-method-calls.ts: graph and domains, documents,
 * messages, telemetry, GraphQL, the AI proxy (against test/fake-ai-upstream.ts) and the login
 * flow (against the loopback OpenID provider of test/oauth-kit.ts).
 */
import { toFile } from '@papr/memory';
import { requests } from './fake-ai-upstream.ts';
import { PLUGIN_REDIRECT, RETURN_TO } from './oauth-kit.ts';
import { call, type MethodCall } from './every-method-calls.ts';

const USER = 'every-ana';
const SESSION = 'every-porto';
const DOMAIN = 'every:support:1';
const LINES = [
  'I moved to Porto in March and started at a design studio.',
  'Congratulations! How is the new job going?',
  'Great so far. I plan to learn Portuguese before the summer.',
];

/** Graph, documents, messages, telemetry, GraphQL, the AI proxy and login. */
export const serviceCalls: MethodCall[] = [
  // graph
  call('graph.transform', ({ client }) =>
    client.graph.transform({ text: 'Vitamin D reduced hip fractures in older adults.', domain_id: 'scifact' }),
  ),
  call('graph.rerank', ({ client }) =>
    client.graph.rerank({
      query: 'does vitamin D prevent fractures',
      documents: ['Vitamin D reduced hip fractures in older adults.', 'The trail starts at the castle.'],
      domain_id: 'scifact',
      top_k: 2,
    }),
  ),
  call('graph.domains.list', ({ client }) => client.graph.domains.list()),
  call('graph.domains.create', ({ client }) =>
    client.graph.domains.create({
      domain_id: DOMAIN,
      name: 'Support tickets',
      description: 'Customer support tickets',
      signals: [{ name: 'product', description: 'Product named', weight: 2 }],
    }),
  ),
  call('graph.domains.retrieve', ({ client }) => client.graph.domains.retrieve(DOMAIN)),
  call('graph.domains.update', ({ client }) => client.graph.domains.update(DOMAIN, { name: 'Tickets' })),
  call('graph.domains.delete', ({ client }) => client.graph.domains.delete(DOMAIN)),
  // document: one upload is cancelled before the worker can take it, the other one is processed
  call('document.upload', async ({ client, ids }) => {
    for (const name of ['keep', 'cancel']) {
      const file = await toFile(Buffer.from(`Trail notes (${name}): carry two litres of water.`), `${name}.txt`);
      const r = await client.document.upload({ file, external_user_id: USER, metadata: JSON.stringify({ name }) });
      ids[`upload_${name}`] = r.document_status.upload_id!;
    }
  }),
  call('document.cancelProcessing', ({ client, ids }) => client.document.cancelProcessing(ids.upload_cancel)),
  call('document.getStatus', async ({ client, ids, startWorker }) => {
    await startWorker();
    return client.document.getStatus(ids.upload_keep, { timeline: true });
  }),
  // messages (the worker runs from document.getStatus on)
  call('messages.store', async ({ client }) => {
    for (const [i, content] of LINES.entries())
      await client.messages.store({
        content,
        role: i % 2 ? 'assistant' : 'user',
        sessionId: SESSION,
        external_user_id: USER,
        process_messages: i < 2,
      });
  }),
  call('messages.sessions.retrieveHistory', ({ client }) =>
    client.messages.sessions.retrieveHistory(SESSION, { limit: 10 }),
  ),
  call('messages.sessions.process', ({ client }) => client.messages.sessions.process(SESSION)),
  call('messages.sessions.retrieveStatus', ({ client }) => client.messages.sessions.retrieveStatus(SESSION)),
  call('messages.sessions.compress', ({ client }) => client.messages.sessions.compress(SESSION)),
  call('messages.sessions.update', ({ client }) =>
    client.messages.sessions.update(SESSION, { title: 'Moving to Porto', metadata: { topic: 'relocation' } }),
  ),
  // telemetry, GraphQL
  call('telemetry.trackEvent', ({ client }) =>
    client.telemetry.trackEvent({
      events: [{ event_name: 'memory_created', properties: { type: 'text' }, timestamp: Date.now() }],
      anonymous_id: 'every-session',
    }),
  ),
  call('graphql.playground', ({ client }) => client.graphql.playground()),
  call('graphql.query', ({ client }) =>
    client.graphql.query({
      body: {
        query: 'query($u: String) { memories(externalUserId: $u, first: 2) { items { id } hasMore } }',
        variables: { u: USER },
      },
    }),
  ),
  // AI proxy
  call('ai.openai.chat.createCompletion', ({ client }) =>
    client.ai.openai.chat.createCompletion({ body: requests.chat() }),
  ),
  call('ai.openai.createResponse', ({ client }) => client.ai.openai.createResponse({ body: requests.responses() })),
  call('ai.anthropic.sendMessage', ({ client }) => client.ai.anthropic.sendMessage({ body: requests.anthropic() })),
  call('ai.google.models.generateContent', ({ client }) =>
    client.ai.google.models.generateContent('gemini-2.0-flash', { body: requests.google() }),
  ),
  call('ai.google.models.streamGenerateContent', ({ client }) =>
    client.ai.google.models.streamGenerateContent('gemini-2.0-flash', { body: requests.google() }),
  ),
  call('ai.getUsage', ({ client }) => client.ai.getUsage()),
  // login → provider → callback → token → me → logout
  call('login.initiate', async ({ keyless, ids }) => {
    const r = await keyless().login.initiate({ query: { redirect_uri: PLUGIN_REDIRECT, state: 'every-state' } });
    ids.login = r.redirect_url!;
  }),
  call('callback.process', async ({ keyless, ids, authorize }) => {
    const back = await authorize(ids.login, 'alice');
    const r = await keyless().callback.process({ query: Object.fromEntries(back.searchParams) });
    ids.code = r.code!;
  }),
  call('token.create', async ({ keyless, ids }) => {
    const r = await keyless().token.create({
      body: { grant_type: 'authorization_code', code: ids.code, redirect_uri: PLUGIN_REDIRECT },
    });
    ids.token = r.access_token;
  }),
  call('me.retrieve', ({ keyless, ids }) => keyless(ids.token).me.retrieve()),
  call('logout.perform', ({ keyless, ids }) => keyless(ids.token).logout.perform({ query: { returnTo: RETURN_TO } })),
];
