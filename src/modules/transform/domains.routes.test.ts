import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeOrg, makeSession } from '../../../test/factories.ts';
import { waitFor } from '../../../test/wait.ts';
import { createWorker } from '../../platform/jobs/index.ts';
import { createLogger } from '../../platform/log.ts';
import { createDomainsPart } from './domains.index-part.ts';

const ID = 'acme:support:1.0.0';
const ticketDomain = (domain_id = ID) => ({
  domain_id,
  name: 'Support tickets',
  description: 'Customer support tickets',
  signals: [
    { name: 'ticket_kind', description: 'Kind of ticket', type: 'enum', allowed_values: ['bug', 'howto', 'billing'] },
    { name: 'product', description: 'Product named', frequency_hz: 30, weight: 2 },
    { name: 'summary', description: 'The request in one sentence', frequency_hz: 10, required: true },
  ],
  signal_multipliers: { product: 1.5 },
  catalog_config: { refresh_every_n: 0 },
  routing_config: { egr_lambda_ce: 0.3, enabled_rule_packs: ['support_v1'] },
});

for (const store of testStores) {
  describe(`graph domains routes [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
      const res = await call('POST', '/v1/graph/domains', ticketDomain('kit:domain:1'));
      assert.equal(res.statusCode, 201, res.body);
    });
    after(() => t.close());
    const call = (method: any, url: string, payload?: unknown, key = t.key) =>
      t.app.inject({ method, url, headers: { 'x-api-key': key }, payload: payload as any });

    const kit = authKitFor(() => t);
    // Another organization's key lists the built-ins only.
    const ownList = (res: any) => assert.ok(res.statusCode === 200 && res.json().domains.every((d: any) => d.builtin));
    kit('GET /v1/graph/domains', 'GET', () => '/v1/graph/domains', 'read', undefined, ownList);
    kit(
      'POST /v1/graph/domains',
      'POST',
      () => '/v1/graph/domains',
      'write',
      () => ticketDomain('kit:new:1'),
      (res) => assert.equal(res.statusCode, 201, 'the id is free in the other organization'),
    );
    kit('GET /v1/graph/domains/{id}', 'GET', () => '/v1/graph/domains/kit:domain:1', 'read');
    const rename = () => ({ name: 'x' });
    kit('PUT /v1/graph/domains/{id}', 'PUT', () => '/v1/graph/domains/kit:domain:1', 'write', rename);
    kit('DELETE /v1/graph/domains/{id}', 'DELETE', () => '/v1/graph/domains/kit:domain:1', 'delete');
    kit('GET …/catalog', 'GET', () => '/v1/graph/domains/kit:domain:1/catalog', 'read');
    kit('POST …/catalog/refresh', 'POST', () => '/v1/graph/domains/kit:domain:1/catalog/refresh', 'write');

    it('register, get (raw and encoded id), update and delete a domain whose id has ":" and "."', async () => {
      const res = await call('POST', '/v1/graph/domains', ticketDomain());
      assert.equal(res.statusCode, 201, res.body);
      assert.match(String(res.headers['content-type']), /application\/json/);
      const d = res.json();
      assert.equal(d.domain_id, ID);
      assert.equal(d.builtin, false);
      assert.equal(d.signals.length, 14);
      assert.deepEqual(d.signals.map((s: any) => s.name).slice(0, 6), [
        'ticket_kind',
        'main_entity_type',
        'relation_structure',
        'key_attributes',
        'setting',
        'summary',
      ]);
      assert.equal(d.signals[10].name, 'product');
      assert.deepEqual(d.signal_multipliers, { product: 1.5 });
      assert.deepEqual(d.catalog_config, { enabled: true, refresh_every_n: 0 });
      assert.deepEqual(d.routing_config, { egr_lambda_ce: 0.3, enabled_rule_packs: ['support_v1'] });
      assert.equal(d.owner_organization_id, t.orgId);
      assert.equal(d.catalog.total_documents, 0);
      assert.equal(d.catalog.last_refreshed, null);
      assert.deepEqual(d.catalog_buffer, []);

      for (const path of [ID, encodeURIComponent(ID)]) {
        const got = await call('GET', `/v1/graph/domains/${path}`);
        assert.equal(got.statusCode, 200, got.body);
        assert.equal(got.json().domain_id, ID);
      }
      const updated = await call('PUT', `/v1/graph/domains/${ID}`, {
        name: 'Tickets',
        signal_multipliers: { summary: 2, '30': 0.5 },
        description: null,
      });
      assert.equal(updated.statusCode, 200, updated.body);
      assert.equal(updated.json().name, 'Tickets');
      assert.equal(updated.json().description, 'Customer support tickets', 'null means absent');
      assert.deepEqual(updated.json().signal_multipliers, { summary: 2, product: 0.5 });
      const cleared = await call('PUT', `/v1/graph/domains/${ID}`, { signal_multipliers: {} });
      assert.deepEqual(cleared.json().signal_multipliers, {});

      const listed = (await call('GET', '/v1/graph/domains')).json().domains;
      assert.equal(listed.length, 16);
      assert.equal(listed[0].domain_id, 'general');
      assert.ok(listed.slice(0, 14).every((x: any) => x.builtin));
      assert.equal(listed[15].domain_id, ID);

      const del = await call('DELETE', `/v1/graph/domains/${ID}`);
      assert.equal(del.statusCode, 200, del.body);
      assert.deepEqual(del.json(), { deleted: true, domain_id: ID });
      assertEnvelope(await call('GET', `/v1/graph/domains/${ID}`), 404);
      assertEnvelope(await call('DELETE', `/v1/graph/domains/${ID}`), 404);
    });

    it('built-ins: readable by short and full id, read-only (409 without retries), ids reserved', async () => {
      const byShort = (await call('GET', '/v1/graph/domains/scifact')).json();
      assert.equal(byShort.builtin, true);
      assert.equal(byShort.signals.length, 14);
      assert.equal((await call('GET', '/v1/graph/domains/engram:scifact:1')).json().domain_id, 'scifact');
      for (const [method, payload] of [
        ['PUT', { name: 'Mine' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, '/v1/graph/domains/scifact', payload);
        const body = assertEnvelope(res, 409);
        assert.match(body.error, /built-in domain scifact/);
        assert.equal(res.headers['x-should-retry'], 'false');
      }
      for (const id of ['engram:general:1', 'scifact']) {
        const res = await call('POST', '/v1/graph/domains', ticketDomain(id));
        assertEnvelope(res, 409);
        assert.equal(res.headers['x-should-retry'], 'false');
      }
      await call('POST', '/v1/graph/domains', ticketDomain('acme:dup:1'));
      const dup = await call('POST', '/v1/graph/domains', ticketDomain('acme:dup:1'));
      assert.match(assertEnvelope(dup, 409).error, /already exists/);
      assertEnvelope(await call('GET', '/v1/graph/domains/acme:unknown:1'), 404);
    });

    it('validation: 422 naming what is wrong', async () => {
      const bad = async (patch: Record<string, unknown>, re: RegExp) => {
        const res = await call('POST', '/v1/graph/domains', { ...ticketDomain('acme:bad:1'), ...patch });
        assert.match(assertEnvelope(res, 422).error, re);
      };
      const sig = (extra: Record<string, unknown>) => ({ name: 'x', description: 'x', ...extra });
      await bad({ signals: [sig({ frequency_hz: 7 })] }, /signal "x": 7 Hz is not a band frequency/);
      await bad({ signals: [sig({ frequency_hz: 2 }), sig({ name: 'y', frequency_hz: 2 })] }, /share 2 Hz/);
      await bad({ signals: [sig({ type: 'enum' })] }, /"x" is an enum and needs allowed_values/);
      await bad({ signals: [sig({}), sig({})] }, /used by two signals/);
      await bad({ domain_id: 'no-colons' }, /<name>:<domain>:<version>/);
      await bad({ domain_id: 'a:b:c:d' }, /<name>:<domain>:<version>/);
      await bad({ domain_id: 'a b:c:1' }, /<name>:<domain>:<version>/);
      await bad({ signal_multipliers: { nope: 2 } }, /no band "nope"/);
      await bad({ signals: undefined }, /signals/);
      await bad({ signals: [] }, /signals/);
      await bad({ signals: Array.from({ length: 15 }, (_, i) => sig({ name: `s${i}` })) }, /signals/);
      const changed = await call('PUT', '/v1/graph/domains/kit:domain:1', {
        signals: [{ name: 'other', description: 'x' }],
      });
      assert.match(assertEnvelope(changed, 422).error, /cannot change/);
      const same = await call('PUT', '/v1/graph/domains/kit:domain:1', { signals: ticketDomain().signals });
      assert.equal(same.statusCode, 200, same.body);
    });

    it('`fields` is accepted for signals; an end user token may read but not register', async () => {
      const { signals, ...rest } = ticketDomain('acme:fields:1');
      const res = await call('POST', '/v1/graph/domains', { ...rest, fields: signals });
      assert.equal(res.statusCode, 201, res.body);
      const { token } = await makeSession(t.db, t.orgId, 'end-user');
      const asUser = (method: any, url: string, payload?: unknown) =>
        t.app.inject({ method, url, headers: { 'x-session-token': token }, payload: payload as any });
      assert.equal((await asUser('GET', '/v1/graph/domains/acme:fields:1')).statusCode, 200);
      assertEnvelope(await asUser('POST', '/v1/graph/domains', ticketDomain('acme:user:1')), 403);
      assertEnvelope(await asUser('DELETE', '/v1/graph/domains/acme:fields:1'), 403);
    });

    it("another organization's custom domain is a 404 everywhere", async () => {
      const other = await makeOrg(t.db);
      for (const [method, url] of [
        ['GET', '/v1/graph/domains/kit:domain:1'],
        ['PUT', '/v1/graph/domains/kit:domain:1'],
        ['DELETE', '/v1/graph/domains/kit:domain:1'],
        ['GET', '/v1/graph/domains/kit:domain:1/catalog'],
        ['POST', '/v1/graph/domains/kit:domain:1/catalog/refresh'],
      ])
        assertEnvelope(await call(method, url, method === 'PUT' ? { name: 'x' } : undefined, other.key), 404);
    });

    it('catalog: empty at first; a refresh is queued (202), reused, and run by the worker', async () => {
      const empty = await call('GET', '/v1/graph/domains/fiqa/catalog');
      assert.equal(empty.statusCode, 200, empty.body);
      assert.deepEqual(empty.json(), {
        domain_id: 'fiqa',
        total_documents: 0,
        domain_distribution: {},
        signal_value_counts: {},
        entity_clusters: [],
        relationship_patterns: [],
        last_refreshed: null,
        last_updated: null,
        catalog_buffer_size: 0,
        pending: 0,
        refresh_job_id: null,
      });
      const part = createDomainsPart({ db: t.db });
      await part.service.observe(t.db, t.orgId, 'fiqa', { finance_area: 'Taxes', identifiers: 'Roth IRA; 401(k)' });
      const queued = await call('POST', '/v1/graph/domains/engram:fiqa:1/catalog/refresh');
      assert.equal(queued.statusCode, 202, queued.body);
      assert.equal(queued.json().status, 'queued');
      assert.equal(queued.json().domain_id, 'fiqa');
      const again = await call('POST', '/v1/graph/domains/fiqa/catalog/refresh');
      assert.equal(again.json().job_id, queued.json().job_id);
      const worker = createWorker({ db: t.db, log: createLogger('silent'), handlers: part.jobs, pollMs: 50 });
      await worker.start();
      try {
        const done = await waitFor(async () => {
          const d = (await call('GET', '/v1/graph/domains/fiqa')).json();
          return d.catalog.last_refreshed && d;
        });
        assert.equal(done.catalog.total_documents, 1);
        assert.deepEqual(done.catalog.domain_distribution, { taxes: 1 });
        assert.deepEqual(
          done.catalog.entity_clusters.map((c: any) => c.label),
          ['401(k)', 'Roth IRA'],
        );
        assert.deepEqual(done.catalog_buffer, []);
      } finally {
        await worker.stop();
      }
      const { key: readOnly } = await makeKey(t.db, t.orgId, { permissions: ['read'] });
      assertEnvelope(await call('POST', '/v1/graph/domains/fiqa/catalog/refresh', undefined, readOnly), 403);
    });
  });
}
