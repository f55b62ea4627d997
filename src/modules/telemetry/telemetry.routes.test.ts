import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { post } from '../../../test/memory-helpers.ts';
import { startMaintenance } from '../../retention.ts';
import { createLogger } from '../../platform/log.ts';
import { waitFor } from '../../../test/wait.ts';
import { MAX_EVENTS, MAX_PROPERTY_BYTES, MAX_PROPERTY_KEYS } from './telemetry.schemas.ts';
import { pruneTelemetry } from './telemetry.store.ts';

const DAY = 86_400_000;

for (const store of testStores) {
  describe(`telemetry [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());
    const track = (body: unknown, key = t.key) => post(t, '/v1/telemetry/events', body, key);
    const summary = (query = '', headers: Record<string, string> = { 'x-api-key': t.key }) =>
      t.app.inject({ method: 'GET', url: `/v1/telemetry/summary${query}`, headers });
    const rows = (where = 'true', params: unknown[] = []) =>
      t.db.query<Record<string, any>>(`SELECT * FROM telemetry_events WHERE ${where} ORDER BY occurred_at`, params);

    it('stores events under the credential, whatever the body says, and counts them per day', async () => {
      const ts = Date.now() - 2 * DAY;
      const res = await track({
        events: [
          {
            event_name: 'memory_created',
            properties: { type: 'text', has_metadata: true },
            user_id: 'h1',
            timestamp: ts,
          },
          { event_name: 'search_performed', organization_id: 'another-org' },
          { event_name: 'search_performed', properties: { organization_id: 'another-org' } },
        ],
        anonymous_id: 'session-9',
        organization_id: 'another-org',
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        success: true,
        events_received: 3,
        events_processed: 3,
        message: '3 of 3 events stored',
      });
      const stored = await rows();
      assert.equal(stored.length, 3);
      assert.ok(stored.every((r) => r.organization_id === t.orgId && r.anonymous_id === 'session-9'));
      const created = stored.find((r) => r.event_name === 'memory_created')!;
      assert.equal(new Date(created.occurred_at).getTime(), ts);
      assert.equal(created.client_user_id, 'h1');
      assert.deepEqual(created.properties, { type: 'text', has_metadata: true });
      assert.ok(created.api_key_id, 'the sending key is recorded');

      const s = await summary();
      assert.equal(s.statusCode, 200, s.body);
      const body = s.json();
      assert.equal(body.total, 3);
      assert.equal(body.telemetry_enabled, true);
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      assert.deepEqual(body.data, [
        { day: day(Date.now()), event_name: 'search_performed', count: 2 },
        { day: day(ts), event_name: 'memory_created', count: 1 },
      ]);
      assert.deepEqual((await summary('?days=1&event_name=search_performed')).json().data.length, 1);
      assert.equal((await summary('?days=1&event_name=memory_created')).json().total, 0);
      // Another organization counts only its own.
      const other = await makeOrg(t.db);
      assert.equal((await summary('', { 'x-api-key': other.key })).json().total, 0);
    });

    it('bounds: events per request, properties, names, timestamps; an empty list is fine', async () => {
      const n = (await rows()).length;
      const many = Array.from({ length: MAX_EVENTS + 1 }, () => ({ event_name: 'x' }));
      const bad: [unknown, string][] = [
        [{ events: many }, 'events'],
        [{}, 'events'],
        [{ events: [{}] }, 'events.0.event_name'],
        [{ events: [{ event_name: '  ' }] }, 'events.0.event_name'],
        [{ events: [{ event_name: 'e'.repeat(129) }] }, 'events.0.event_name'],
        [{ events: [{ event_name: 'x', properties: [1, 2] }] }, 'events.0.properties'],
        [{ events: [{ event_name: 'x', properties: { big: 'b'.repeat(MAX_PROPERTY_BYTES) } }] }, 'events.0.properties'],
        [
          {
            events: [
              {
                event_name: 'x',
                properties: Object.fromEntries(Array.from({ length: MAX_PROPERTY_KEYS + 1 }, (_, i) => [`k${i}`, i])),
              },
            ],
          },
          'events.0.properties',
        ],
        [{ events: [{ event_name: 'x', timestamp: Date.now() + 3 * DAY }] }, 'events.0.timestamp'],
        [{ events: [{ event_name: 'x', timestamp: -1 }] }, 'events.0.timestamp'],
        [{ events: [{ event_name: 'x', timestamp: 1.5 }] }, 'events.0.timestamp'],
        [{ events: [{ event_name: 'x', timestamp: '2024-01-01' }] }, 'events.0.timestamp'],
        [{ events: [{ event_name: 'x' }], anonymous_id: 'a'.repeat(257) }, 'anonymous_id'],
      ];
      for (const [body, field] of bad) {
        const e = assertEnvelope(await track(body), 422);
        assert.ok(
          e.details.issues.some((i: { field: string }) => i.field === field),
          `${field}: ${JSON.stringify(e.details)}`,
        );
      }
      assert.equal((await rows()).length, n, 'nothing stored from a refused request');
      const empty = await track({ events: [] });
      assert.equal(empty.statusCode, 200, empty.body);
      assert.equal(empty.json().events_processed, 0);
      const exactly = await track({ events: Array.from({ length: MAX_EVENTS }, () => ({ event_name: 'bulk' })) });
      assert.equal(exactly.json().events_processed, MAX_EVENTS);
    });

    it('a namespace key’s events carry its namespace, it counts only those; an end user sends only', async () => {
      const ns = await makeNamespace(t.db, t.orgId);
      const { key } = await makeKey(t.db, t.orgId, { namespaceId: ns });
      assert.equal((await track({ events: [{ event_name: 'ns_event' }] }, key)).statusCode, 200);
      assert.equal((await rows('event_name = $1', ['ns_event']))[0].namespace_id, ns);
      const counted = (await summary('', { 'x-api-key': key })).json();
      assert.deepEqual(
        counted.data.map((r: { event_name: string }) => r.event_name),
        ['ns_event'],
      );
      const user = await makeSession(t.db, t.orgId, 'tele-user');
      const sent = await t.app.inject({
        method: 'POST',
        url: '/v1/telemetry/events',
        headers: { 'x-session-token': user.token },
        payload: { events: [{ event_name: 'from_user' }] },
      });
      assert.equal(sent.statusCode, 200, sent.body);
      assert.equal((await rows('event_name = $1', ['from_user']))[0].user_id, user.userId);
      assertEnvelope(await summary('', { 'x-session-token': user.token }), 403);
      assertEnvelope(await summary('?days=0'), 422);
      assertEnvelope(await summary('?days=367'), 422);
    });

    it('retention: the maintenance pass prunes events older than TELEMETRY_RETENTION_DAYS', async () => {
      await track({ events: [{ event_name: 'old_one' }, { event_name: 'recent_one' }] });
      await t.db.query(
        `UPDATE telemetry_events SET received_at = now() - interval '100 days' WHERE event_name = 'old_one'`,
      );
      assert.equal(await pruneTelemetry(t.db, 120), 0);
      const stop = startMaintenance(t.db, testConfig({ TELEMETRY_RETENTION_DAYS: '90' }), createLogger('silent'));
      try {
        await waitFor(async () => (await rows('event_name = $1', ['old_one'])).length === 0);
      } finally {
        stop();
      }
      assert.equal((await rows('event_name = $1', ['recent_one'])).length, 1);
    });

    const kit = authKitFor(() => t);
    kit(
      'track',
      'POST',
      () => '/v1/telemetry/events',
      'write',
      () => ({ events: [{ event_name: 'kit' }] }),
      async (res, ctx) => {
        // Another organization's key stores into its own organization, never this one.
        assert.equal(res.statusCode, 200, res.body);
        const mine = await ctx.db.query(
          'SELECT 1 FROM telemetry_events WHERE organization_id = $1 AND event_name = $2',
          [ctx.orgId, 'kit'],
        );
        assert.equal(mine.length, 0);
      },
    );
    kit(
      'summary',
      'GET',
      () => '/v1/telemetry/summary',
      'read',
      undefined,
      (res) => {
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().total, 0, 'another organization counts only its own');
      },
    );
  });

  describe(`telemetry disabled [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store, { env: { TELEMETRY_ENABLED: 'false' } });
    });
    after(() => t.close());

    it('answers 200 with events_processed 0 and says so; stores nothing', async () => {
      const res = await post(t, '/v1/telemetry/events', { events: [{ event_name: 'a' }, { event_name: 'b' }] });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.success, true);
      assert.equal(body.events_received, 2);
      assert.equal(body.events_processed, 0);
      assert.match(body.message, /disabled/);
      assert.equal((await t.db.query('SELECT 1 FROM telemetry_events')).length, 0);
      assertEnvelope(await post(t, '/v1/telemetry/events', { events: [{}] }), 422);
      const s = await t.app.inject({ method: 'GET', url: '/v1/telemetry/summary', headers: { 'x-api-key': t.key } });
      assert.equal(s.json().telemetry_enabled, false);
    });
  });
}
