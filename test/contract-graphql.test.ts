/**
 * The official client (@papr/memory 2.8.0), unmodified, against a real listening server on
 * both stores: `client.graphql.playground()` (GET /v1/graphql) and `client.graphql.query()`
 * (POST /v1/graphql; it sends a body only when given `{body}`, otherwise none at all).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Papr from '@papr/memory';
import { makeOrg } from './factories.ts';
import { startApp, testStores, type TestApp } from './harness.ts';

type Json = Record<string, any>;

for (const store of testStores) {
  describe(`official client: graphql [${store.name}]`, () => {
    let t: TestApp;
    let client: Papr;
    let baseURL: string;
    before(async () => {
      t = await startApp(store);
      baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
      client = new Papr({ xAPIKey: t.key, baseURL, maxRetries: 0 });
    });
    after(() => t.close());

    it('playground(): the page answers (HTML, not 404 or 5xx)', async () => {
      const page = (await client.graphql.playground()) as unknown;
      assert.equal(typeof page, 'string');
      assert.match(page as string, /Engram GraphQL/);
      const raw = await client.graphql.playground().asResponse();
      assert.equal(raw.status, 200);
      assert.match(raw.headers.get('content-type') ?? '', /^text\/html/);
    });

    it('query({body}): a mutation, then queries read it back, and search finds it', async () => {
      const added = (await client.graphql.query({
        body: {
          query: 'mutation Add($input: AddMemoryInput!) { addMemory(input: $input) { id memory { content } } }',
          variables: { input: { content: 'Inês bakes sourdough every Sunday in Braga.', externalUserId: 'ines' } },
          operationName: 'Add',
        },
      })) as Json;
      assert.equal(added.errors, undefined, JSON.stringify(added.errors));
      const id = added.data.addMemory.id;
      assert.equal(added.data.addMemory.memory.content, 'Inês bakes sourdough every Sunday in Braga.');

      const read = (await client.graphql.query({
        body: {
          query: `query($id: ID!) {
            memory(id: $id) { id externalUserId }
            memories(externalUserId: "ines", first: 5) { items { id } hasMore }
            search(query: "Who bakes sourdough?", externalUserId: "ines") { memories { id content } }
          }`,
          variables: { id },
        },
      })) as Json;
      assert.equal(read.data.memory.externalUserId, 'ines');
      assert.deepEqual(read.data.memories, { items: [{ id }], hasMore: false });
      assert.equal(read.data.search.memories[0].id, id);
      // The REST API sees the same memory.
      const rest = await client.memory.get(id);
      assert.equal(rest.data?.memories?.[0]?.content, 'Inês bakes sourdough every Sunday in Braga.');
    });

    it('errors: resolver errors in the GraphQL response (200); no body and no credential in the envelope', async () => {
      const missing = (await client.graphql.query({ body: { query: '{ memory(id: "nope") { id } }' } })) as Json;
      assert.equal(missing.data.memory, null);
      assert.equal(missing.errors[0].extensions.code, 404);
      const syntax = (await client.graphql.query({ body: { query: '{ memory(' } })) as Json;
      assert.equal(syntax.errors[0].extensions.code, 400);
      // Called without options the client sends no body and no Content-Type: a clear 400, not a 415.
      await assert.rejects(client.graphql.query(), (err: any) => {
        assert.equal(err.status, 400);
        assert.match(err.error.error, /needs a JSON body/);
        return true;
      });
      const anonymous = new Papr({ xAPIKey: 'ek_org_doesnotexist0000000000000000000000000', baseURL, maxRetries: 0 });
      await assert.rejects(
        anonymous.graphql.query({ body: { query: '{ __typename }' } }),
        (err: any) => err.status === 401 && err.error.status === 'error',
      );
      const ownId = ((await client.graphql.query({ body: { query: '{ memories { items { id } } }' } })) as Json).data
        .memories.items[0].id;
      const other = new Papr({ xAPIKey: (await makeOrg(t.db)).key, baseURL, maxRetries: 0 });
      const theirs = (await other.graphql.query({ body: { query: `{ memory(id: "${ownId}") { id } }` } })) as Json;
      assert.equal(theirs.errors[0].extensions.code, 404);
    });
  });
}
