import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import vm from 'node:vm';
import { buildSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { parseHTML } from 'linkedom';
import { buildWorker } from '../../app.ts';
import type { Worker } from '../../platform/jobs/index.ts';
import { createLogger } from '../../platform/log.ts';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { addMemory } from '../../../test/memory-helpers.ts';
import { waitFor } from '../../../test/wait.ts';
import { MAX_COST } from './graphql.cost.ts';
import { MAX_DEPTH } from './graphql.service.ts';
import { SDL } from './graphql.sdl.ts';

type Json = Record<string, any>;

it('docs/graphql.md shows the schema as it is (printed from graphql.sdl.ts)', () => {
  const page = fs.readFileSync(new URL('../../../docs/graphql.md', import.meta.url), 'utf8');
  assert.ok(page.includes(`\`\`\`graphql\n${printSchema(buildSchema(SDL))}\n\`\`\``), 'regenerate the Schema section');
});

for (const store of testStores) {
  describe(`graphql [${store.name}]`, () => {
    let t: TestApp;
    let worker: Worker | null = null;
    let anaMemory: string;
    before(async () => {
      t = await startApp(store);
      anaMemory = await addMemory(t, { content: 'Ana keeps bees on her roof in Porto.', external_user_id: 'ana' });
    });
    after(async () => {
      await worker?.stop();
      await t.close();
    });

    const post = (payload: unknown, headers: Record<string, string> = { 'x-api-key': t.key }) =>
      t.app.inject({ method: 'POST', url: '/v1/graphql', headers, payload: payload as any });
    /** A GraphQL request answered 200; its body. */
    const gql = async (query: string, variables?: Json, headers?: Record<string, string>): Promise<Json> => {
      const res = await post({ query, variables }, headers);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const codes = (body: Json) => (body.errors ?? []).map((e: Json) => e.extensions.code);

    const kit = authKitFor(() => t);
    // A valid key of another organization authenticates; our memory is simply not found there.
    kit(
      'POST /v1/graphql',
      'POST',
      () => '/v1/graphql',
      undefined,
      () => ({ query: `{ memory(id: "${anaMemory}") { id content } }` }),
      (res) => {
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().data.memory, null);
        assert.deepEqual(codes(res.json()), [404]);
      },
    );

    it('GET /v1/graphql: the playground, public, self-contained (nothing from another host)', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/graphql' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /<textarea id="query"/);
      assert.doesNotMatch(res.body, /https?:\/\//, 'no CDN or other external resource');
      assert.match(String(res.headers['content-security-policy']), /connect-src 'self'/);
    });

    it('the playground runs a query and shows the schema (its script over linkedom, requests to the app)', async () => {
      const page = (await t.app.inject({ method: 'GET', url: '/v1/graphql' })).body;
      const { window, document } = parseHTML(page);
      const $ = (id: string) => document.getElementById(id) as any;
      // linkedom has no HTMLSelectElement.value (browsers do).
      let kind = '';
      Object.defineProperty($('kind'), 'value', { get: () => kind, set: (v: string) => (kind = v) });
      const saved = new Map<string, string>();
      const fetch = async (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string }) => {
        const r = await t.app.inject({ method: init.method, url, headers: init.headers, payload: init.body });
        return { status: r.statusCode, json: async () => r.json() };
      };
      const sessionStorage = { getItem: (k: string) => saved.get(k) ?? null, setItem: saved.set.bind(saved) };
      const location = { pathname: '/v1/graphql' };
      const context = vm.createContext({ document, location, performance, JSON, Math, fetch, sessionStorage });
      vm.runInContext(/<script>([\s\S]*)<\/script>/.exec(page)![1], context);
      $('cred').value = t.key;
      $('query').value = `{ memory(id: "${anaMemory}") { content } }`;
      $('vars').value = '';
      $('run').dispatchEvent(new window.Event('click'));
      await waitFor(() => /HTTP 200/.test($('status').textContent));
      assert.match($('out').textContent, /Ana keeps bees/);
      $('load').dispatchEvent(new window.Event('click'));
      await waitFor(() => /type Memory \{/.test($('schema').textContent));
      assert.equal(saved.get('engram.cred'), t.key, 'kept for the tab only (sessionStorage)');
    });

    it('a request that is no GraphQL request: 400/422 in the envelope, never 415 or 500', async () => {
      const none = await t.app.inject({ method: 'POST', url: '/v1/graphql', headers: { 'x-api-key': t.key } });
      assert.match(assertEnvelope(none, 400).error, /needs a JSON body/);
      assertEnvelope(await post({}), 422);
      assertEnvelope(await post({ query: 42 }), 422);
      assertEnvelope(await post({ query: '{ __typename }', variables: [1] }), 422);
      // Not GraphQL (JSON text, junk): a syntax error in the GraphQL response.
      for (const query of ['1', '[]', '{"kind":"Document"}', 'query {']) {
        const body = await gql(query);
        assert.equal(body.data, undefined, query);
        assert.deepEqual(codes(body), [400], query);
      }
    });

    it('a mutation stores a memory; queries read it back; update and delete go through the same rules', async () => {
      const added = await gql(
        `mutation Add($input: AddMemoryInput!) {
           addMemory(input: $input) { id createdAt memoryChunkIds memory { id content externalUserId metadata } }
         }`,
        {
          input: {
            content: 'Bruno restores old Vespa scooters.',
            externalUserId: 'bruno',
            metadata: { topics: ['x'] },
          },
        },
      );
      const id = added.data.addMemory.id;
      assert.equal(added.data.addMemory.memory.content, 'Bruno restores old Vespa scooters.');
      assert.equal(added.data.addMemory.memory.externalUserId, 'bruno');
      assert.ok(added.data.addMemory.memoryChunkIds.length >= 1);
      const rest = await t.app.inject({ method: 'GET', url: `/v1/memory/${id}`, headers: { 'x-api-key': t.key } });
      assert.equal(rest.json().data.memories[0].content, 'Bruno restores old Vespa scooters.', 'REST sees it too');

      const read = await gql(`{ memory(id: "${id}") { id content userId } memories(externalUserId: "bruno") {
        items { id } hasMore nextCursor } }`);
      assert.equal(read.data.memory.content, 'Bruno restores old Vespa scooters.');
      assert.deepEqual(
        read.data.memories.items.map((m: Json) => m.id),
        [id],
      );

      const updated = await gql(`mutation { updateMemory(id: "${id}", input: {content: "Bruno restores Lambrettas."}) {
        id updatedAt memory { content } } }`);
      assert.equal(updated.data.updateMemory.memory.content, 'Bruno restores Lambrettas.');
      assert.equal(
        (await gql(`{ memory(id: "${id}") { content } }`)).data.memory.content,
        'Bruno restores Lambrettas.',
      );

      const deleted = await gql(`mutation { deleteMemory(id: "${id}") { id deleted } }`);
      assert.deepEqual(deleted.data.deleteMemory, { id, deleted: true });
      const gone = await gql(`{ memory(id: "${id}") { id } }`);
      assert.equal(gone.data.memory, null);
      assert.deepEqual(codes(gone), [404]);
    });

    it('bad input is refused as over REST (extensions.code 422), and nothing is stored', async () => {
      const count = async () =>
        (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories'))[0].n as number;
      const before = await count();
      const empty = await gql('mutation { addMemory(input: {content: ""}) { id } }');
      assert.equal(empty.data, null);
      assert.deepEqual(codes(empty), [422]);
      assert.equal(empty.errors[0].extensions.details.issues[0].field, 'input.content');
      const role = await gql('mutation { addMemory(input: {content: "x", metadata: {role: "robot"}}) { id } }');
      assert.deepEqual(codes(role), [422]);
      assert.match(role.errors[0].message, /input\.metadata\.role/);
      const big = await gql('mutation($c: String!) { addMemory(input: {content: $c}) { id } }', {
        c: 'x'.repeat(20_000),
      });
      assert.deepEqual(codes(big), [422]);
      const page = await gql('{ memories(first: 101) { items { id } } }');
      assert.deepEqual(codes(page), [422]);
      assert.deepEqual(codes(await gql('{ memories(after: "not-a-cursor") { items { id } } }')), [422]);
      assert.equal(await count(), before);
    });

    it('memories: newest first, paged by cursor without repeats', async () => {
      const ids = [];
      for (const n of [1, 2, 3])
        ids.push(await addMemory(t, { content: `Page note ${n}.`, external_user_id: 'pager' }));
      const q = `query($after: String) { memories(externalUserId: "pager", first: 2, after: $after) {
        items { id } hasMore nextCursor } }`;
      const first = (await gql(q)).data.memories;
      assert.equal(first.hasMore, true);
      const second = (await gql(q, { after: first.nextCursor })).data.memories;
      assert.equal(second.hasMore, false);
      assert.equal(second.nextCursor, null);
      assert.deepEqual([...first.items, ...second.items].map((m: Json) => m.id).reverse(), ids);
      const none = await gql('{ memories(externalUserId: "nobody-at-all") { items { id } } }');
      assert.deepEqual(none.data.memories.items, []);
    });

    it('search finds a memory just added through GraphQL, with scores', async () => {
      await gql(
        'mutation { addMemory(input: {content: "Carla sails a wooden dinghy on the Tagus.", ' +
          'externalUserId: "carla"}) { id } }',
      );
      const found = await gql(`{ search(query: "Who sails on the Tagus?", externalUserId: "carla", maxMemories: 5) {
        searchId memories { content relevanceScore similarityScore } nodes { id label } } }`);
      const r = found.data.search;
      assert.ok(r.searchId);
      assert.match(r.memories[0].content, /wooden dinghy/);
      assert.equal(typeof r.memories[0].relevanceScore, 'number');
      assert.deepEqual(codes(await gql('{ search(query: "  ") { searchId } }')), [422]);
    });

    it('graph: nodes and relationships of a user, from what their memories produced', async () => {
      worker = buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log: createLogger('silent') });
      await worker.start();
      const memoryPolicy = {
        mode: 'manual',
        nodes: [
          { id: 'p', type: 'Person', properties: { name: 'Dora' } },
          { id: 'o', type: 'Organization', properties: { name: 'Acme Tiles' } },
        ],
        relationships: [{ source: 'p', target: 'o', type: 'WORKS_AT' }],
      };
      await gql('mutation($i: AddMemoryInput!) { addMemory(input: $i) { id } }', {
        i: { content: 'Dora works at Acme Tiles.', externalUserId: 'dora', memoryPolicy },
      });
      const q = `{ graph(externalUserId: "dora") { memoriesRead nodes { id label name properties }
        relationships { type memoryId source { name label } target { name label } } } }`;
      const graph = await waitFor(
        async () => {
          // Nodes and relationships resolve in statements of their own: while the worker is
          // writing, one answer can hold the relationship and not yet the nodes' links.
          const g = (await gql(q)).data.graph;
          return g.relationships.length > 0 && g.nodes.length >= 2 && g;
        },
        { timeoutMs: 60_000 },
      );
      assert.equal(graph.memoriesRead, 1);
      assert.deepEqual(graph.nodes.map((n: Json) => `${n.label}:${n.name}`).sort(), [
        'Organization:Acme Tiles',
        'Person:Dora',
      ]);
      assert.deepEqual(
        graph.relationships.map((r: Json) => `${r.source.name}-${r.type}->${r.target.name}`),
        ['Dora-WORKS_AT->Acme Tiles'],
      );
      const other = await makeOrg(t.db);
      const theirs = await gql(q, undefined, { 'x-api-key': other.key });
      assert.deepEqual(theirs.data.graph, { memoriesRead: 0, nodes: [], relationships: [] });
    });

    it("another organization's key: our ids are not found, our data not listed, writes do not reach it", async () => {
      const other = { 'x-api-key': (await makeOrg(t.db)).key };
      const read = await gql(`{ memory(id: "${anaMemory}") { id } }`, undefined, other);
      assert.equal(read.data.memory, null);
      assert.deepEqual(codes(read), [404]);
      const lists = await gql(
        '{ memories { items { id } } users { items { externalId } } namespaces { total } }',
        {},
        other,
      );
      assert.deepEqual(lists.data.memories.items, []);
      assert.ok(!lists.data.users.items.some((u: Json) => u.externalId === 'ana'));
      for (const m of [
        `mutation { updateMemory(id: "${anaMemory}", input: {content: "hijacked"}) { id } }`,
        `mutation { deleteMemory(id: "${anaMemory}") { id } }`,
      ])
        assert.deepEqual(codes(await gql(m, undefined, other)), [404]);
      const ours = await gql(`{ memory(id: "${anaMemory}") { content } }`);
      assert.equal(ours.data.memory.content, 'Ana keeps bees on her roof in Porto.', 'unchanged');
    });

    it('a namespace key stays in its namespace', async () => {
      const [nsA, nsB] = [await makeNamespace(t.db, t.orgId), await makeNamespace(t.db, t.orgId)];
      const inA = await addMemory(t, { content: 'Only in namespace A.', external_user_id: 'eli', namespace_id: nsA });
      const keyB = { 'x-api-key': (await makeKey(t.db, t.orgId, { namespaceId: nsB })).key };
      assert.deepEqual(codes(await gql(`{ memory(id: "${inA}") { id } }`, undefined, keyB)), [404]);
      assert.deepEqual(
        codes(await gql(`{ memories(namespaceId: "${nsA}") { items { id } } }`, undefined, keyB)),
        [403],
      );
      assert.deepEqual(codes(await gql(`{ namespace(id: "${nsA}") { id } }`, undefined, keyB)), [404]);
      const added = await gql(
        'mutation { addMemory(input: {content: "Written with key B.", externalUserId: "eli"}) { ' +
          'id memory { namespaceId } } }',
        undefined,
        keyB,
      );
      assert.equal(added.data.addMemory.memory.namespaceId, nsB, 'lands in its own namespace');
      const own = await gql(
        '{ memories(externalUserId: "eli") { items { content } } namespaces { items { id } } }',
        {},
        keyB,
      );
      assert.deepEqual(own.data.memories.items, [{ content: 'Written with key B.' }]);
      assert.deepEqual(own.data.namespaces.items, [{ id: nsB }]);
      const toA = await gql(
        `mutation { addMemory(input: {content: "x", externalUserId: "eli", namespaceId: "${nsA}"}) { id } }`,
        {},
        keyB,
      );
      assert.deepEqual(codes(toA), [403]);
    });

    it('an end-user token acts only as its own user', async () => {
      const maya = await makeSession(t.db, t.orgId, 'maya');
      const asMaya = { 'x-session-token': maya.token };
      await gql('mutation { addMemory(input: {content: "Maya collects vinyl."}) { id } }', undefined, asMaya);
      const mine = await gql(
        '{ memories { items { content externalUserId } } users { items { externalId } } }',
        {},
        asMaya,
      );
      assert.deepEqual(mine.data.memories.items, [{ content: 'Maya collects vinyl.', externalUserId: 'maya' }]);
      assert.deepEqual(mine.data.users.items, [{ externalId: 'maya' }]);
      for (const q of [
        '{ memories(externalUserId: "ana") { items { id } } }',
        `{ memory(id: "${anaMemory}") { id } }`,
        '{ search(query: "bees", externalUserId: "ana") { searchId } }',
        'mutation { addMemory(input: {content: "x", externalUserId: "ana"}) { id } }',
        `mutation { deleteMemory(id: "${anaMemory}") { id } }`,
      ])
        assert.ok([403, 404].includes(codes(await gql(q, undefined, asMaya))[0]), q);
      const anaId = (await gql('{ users(externalId: "ana") { items { id } } }')).data.users.items[0].id;
      assert.deepEqual(codes(await gql(`{ user(id: "${anaId}") { id } }`, undefined, asMaya)), [403]);
    });

    it('a key without read may add (the memory itself comes back null with a 403); reads are refused', async () => {
      const writeOnly = { 'x-api-key': (await makeKey(t.db, t.orgId, { permissions: ['write'] })).key };
      const added = await gql(
        'mutation { addMemory(input: {content: "Write-only note.", externalUserId: "wo"}) { id memory { id } } }',
        {},
        writeOnly,
      );
      assert.ok(added.data.addMemory.id);
      assert.equal(added.data.addMemory.memory, null);
      assert.deepEqual(codes(added), [403]);
      assert.deepEqual(codes(await gql('{ memories { items { id } } }', undefined, writeOnly)), [403]);
      const readOnly = { 'x-api-key': (await makeKey(t.db, t.orgId, { permissions: ['read'] })).key };
      assert.deepEqual(
        codes(await gql('mutation { addMemory(input: {content: "x", externalUserId: "wo"}) { id } }', {}, readOnly)),
        [403],
      );
    });

    it('depth and cost limits refuse a malicious query at once, before any resolver runs', async () => {
      const searches = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM query_log'))[0].n;
      const logged = await searches();
      const timed = async (query: string) => {
        const started = Date.now();
        const body = await gql(query);
        return { body, ms: Date.now() - started };
      };
      let deep = 'name';
      for (let i = 0; i < 1000; i++) deep = `ofType { ${deep} }`;
      const tooDeep = await timed(`{ __type(name: "Query") { ${deep} } }`);
      assert.equal(tooDeep.body.data, undefined);
      assert.deepEqual(codes(tooDeep.body), [400]);
      assert.match(tooDeep.body.errors[0].message, new RegExp(`depth limit of ${MAX_DEPTH}`));

      const wide = await timed('{ users(first: 100) { items { memories(first: 100) { items { id content } } } } }');
      assert.deepEqual(codes(wide.body), [400]);
      assert.equal(wide.body.errors[0].extensions.limit, MAX_COST);
      assert.ok(wide.body.errors[0].extensions.cost > MAX_COST);

      const aliased = Array.from({ length: 20 }, (_, i) => `s${i}: search(query: "bees") { searchId }`).join(' ');
      const many = await timed(`{ ${aliased} }`);
      assert.deepEqual(codes(many.body), [400]);
      // The cost counts the variables' values.
      const nested = 'query($n: Int) { users(first: $n) { items { memories(first: $n) { items { id } } } } }';
      assert.deepEqual(codes(await gql(nested, { n: 100 })), [400]);
      assert.deepEqual(codes(await gql(nested, { n: 5 })), []);
      assert.equal(await searches(), logged, 'no search ran');
      const tokens = await timed(`{ ${Array.from({ length: 2000 }, (_, i) => `a${i}: __typename`).join(' ')} }`);
      assert.match(tokens.body.errors[0].message, /tokens/);
      // Generous bounds: a refusal costs parsing and validation only, never the work asked for.
      for (const r of [tooDeep, wide, many, tokens]) assert.ok(r.ms < 5000, `answered in ${r.ms} ms`);
    });

    it('introspection is allowed; operationName picks the operation', async () => {
      const schema = await gql(getIntrospectionQuery());
      assert.deepEqual(codes(schema), []);
      const names = schema.data.__schema.types.map((x: Json) => x.name);
      for (const n of ['Memory', 'SearchResult', 'Graph', 'User', 'Namespace', 'AddMemoryInput'])
        assert.ok(names.includes(n));
      const two = await post({ query: 'query A { a: __typename } query B { b: __typename }', operationName: 'B' });
      assert.deepEqual(two.json().data, { b: 'Query' });
    });
  });
}
