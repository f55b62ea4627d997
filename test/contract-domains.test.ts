/**
 * The official client (@papr/memory 2.8.0), unmodified, against a real listening server on both
 * stores: `client.graph.domains.list/create/retrieve/update/delete`, with ids holding ":" and "."
 * (the client sends colons raw), and the 409 of a duplicate sent once, not retried.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Papr, { ConflictError, NotFoundError, UnprocessableEntityError } from '@papr/memory';
import { makeOrg } from './factories.ts';
import { startApp, testStores, type TestApp } from './harness.ts';

const ID = 'acme:support:1.0.0';

for (const store of testStores) {
  describe(`official client: graph domains [${store.name}]`, () => {
    let t: TestApp;
    let client: Papr;
    let baseURL: string;
    /** POST /v1/graph/domains requests the server received. */
    let creates = 0;
    before(async () => {
      t = await startApp(store, {
        beforeReady: (app) =>
          app.addHook('onRequest', async (req) => {
            if (req.method === 'POST' && req.url === '/v1/graph/domains') creates++;
          }),
      });
      baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
      // Default retries: a 409 must come back after one attempt (x-should-retry: false).
      client = new Papr({ xAPIKey: t.key, baseURL });
    });
    after(() => t.close());

    it('list, create, retrieve, update and delete', async () => {
      const listed = await client.graph.domains.list();
      assert.equal(listed.domains.length, 14);
      assert.equal(listed.domains[0].domain_id, 'general');
      assert.ok(listed.domains.every((d) => d.builtin && d.signals.length === 14));

      const created = await client.graph.domains.create({
        domain_id: ID,
        name: 'Support tickets',
        description: 'Customer support tickets',
        signals: [
          { name: 'ticket_kind', description: 'Kind', type: 'enum', allowed_values: ['bug', 'howto', 'billing'] },
          { name: 'product', description: 'Product named', frequency_hz: 30, weight: 2 },
        ],
        signal_multipliers: { product: 1.5 },
        catalog_config: { enabled: true, refresh_every_n: 10 },
        routing_config: { egr_lambda_ce: 0.3, holographic_floor: true },
      });
      assert.equal(created.domain_id, ID);
      assert.equal(created.builtin, false);
      assert.equal(created.signals.length, 14);
      assert.equal(created.signals[10].name, 'product');
      assert.deepEqual(created.catalog_config, { enabled: true, refresh_every_n: 10 });
      assert.deepEqual(created.routing_config, { egr_lambda_ce: 0.3, holographic_floor: true });

      const got = await client.graph.domains.retrieve(ID);
      assert.equal(got.name, 'Support tickets');
      assert.equal(got.catalog?.total_documents, 0);
      assert.deepEqual(got.catalog_buffer, []);
      assert.equal((await client.graph.domains.retrieve('engram:scifact:1')).domain_id, 'scifact');

      const updated = await client.graph.domains.update(ID, { name: 'Tickets', signal_multipliers: {} });
      assert.equal(updated.name, 'Tickets');
      assert.deepEqual(updated.signal_multipliers, {});
      assert.equal(updated.description, 'Customer support tickets');

      assert.equal((await client.graph.domains.list()).domains.length, 15);
      assert.deepEqual(await client.graph.domains.delete(ID), { deleted: true, domain_id: ID });
      await assert.rejects(client.graph.domains.retrieve(ID), NotFoundError);
    });

    it('a duplicate is a 409 sent once; built-ins are read-only; bad bands are a 422', async () => {
      const body = {
        domain_id: 'acme:dup:2',
        name: 'Dup',
        description: '',
        signals: [{ name: 'x', description: 'x' }],
      };
      await client.graph.domains.create(body);
      const before = creates;
      await assert.rejects(client.graph.domains.create(body), ConflictError);
      assert.equal(creates - before, 1, 'the client did not retry the 409');
      await assert.rejects(client.graph.domains.update('scifact', { name: 'Mine' }), ConflictError);
      await assert.rejects(client.graph.domains.delete('engram:general:1'), ConflictError);
      await assert.rejects(
        client.graph.domains.create({
          ...body,
          domain_id: 'acme:bad:1',
          signals: [{ ...body.signals[0], frequency_hz: 3 }],
        }),
        UnprocessableEntityError,
      );
    });

    it("another organization's domain is not found", async () => {
      const other = await makeOrg(t.db);
      const theirs = new Papr({ xAPIKey: other.key, baseURL, maxRetries: 0 });
      await assert.rejects(theirs.graph.domains.retrieve('acme:dup:2'), NotFoundError);
      assert.equal((await theirs.graph.domains.list()).domains.length, 14);
    });
  });
}
