/**
 * The official client (@papr/memory 2.8.0), unmodified, against a real listening server on
 * both stores: `client.feedback.*`, `client.telemetry.trackEvent`, `client.namespace.instance.*`
 * and `client.organization.instance.*` (issue #21), and the listing route through the client's
 * generic `get`, with the bad input the issue names.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Papr, { APIError } from '@papr/memory';
import { makeNamespace, makeOrg } from './factories.ts';
import { startApp, testStores, type TestApp } from './harness.ts';

/** The client's errors: an APIError of `status`. */
const status = (code: number) => (err: unknown) => err instanceof APIError && err.status === code;

for (const store of testStores) {
  describe(`official client: feedback, telemetry, instance [${store.name}]`, () => {
    let t: TestApp;
    let baseURL: string;
    let client: Papr;
    /** Requests that reached the server, by path (to see the client not retry a 501). */
    const hits = new Map<string, number>();
    before(async () => {
      t = await startApp(store, {
        beforeReady: (app) =>
          app.addHook('onRequest', async (req) => {
            const path = req.url.split('?')[0];
            hits.set(path, (hits.get(path) ?? 0) + 1);
          }),
      });
      baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
      client = new Papr({ xAPIKey: t.key, baseURL, maxRetries: 0 });
    });
    after(() => t.close());

    it('feedback: submit, getByID, submitBatch; the cited memory rises in the user’s next search', async () => {
      for (const content of [
        'Lena parks her bike behind the library.',
        'Lena parks her bike behind the station.',
        'Lena’s bike has a green bell.',
        'Lena bought a new helmet for cycling.',
        'The library closes at eight on weekdays.',
        'Lena takes the tram when it rains.',
      ])
        await client.memory.add({ content, external_user_id: 'lena' });
      const query = 'Where does Lena park her bike?';
      const first = await client.memory.search({ query, external_user_id: 'lena' });
      const memories = first.data!.memories!;
      assert.ok(first.search_id && memories.length >= 2);
      const second = memories[1];

      const submitted = await client.feedback.submit({
        search_id: first.search_id,
        feedbackData: { feedbackType: 'thumbs_up', feedbackSource: 'inline', citedMemoryIds: [second.id] },
        external_user_id: 'lena',
      });
      assert.equal(submitted.code, 200);
      assert.equal(submitted.status, 'success');
      assert.ok(submitted.feedback_id);
      assert.deepEqual(submitted.details, { search_id: first.search_id, signal: 1, memories_signalled: 1 });

      const got = await client.feedback.getByID(submitted.feedback_id!);
      assert.equal(got.feedback_id, submitted.feedback_id);
      assert.equal((got as unknown as { feedback: { search_id: string } }).feedback.search_id, first.search_id);

      const again = await client.memory.search({ query, external_user_id: 'lena' });
      assert.equal(again.data!.memories![0].id, second.id, 'rated up: first now');

      const batch = await client.feedback.submitBatch({
        feedback_items: [
          {
            search_id: again.search_id!,
            feedbackData: { feedbackType: 'rating', feedbackSource: 'session_end', feedbackScore: 4 },
          },
          { search_id: 'no-such-search', feedbackData: { feedbackType: 'thumbs_down', feedbackSource: 'inline' } },
        ],
        session_context: { session: 'bike-chat' },
      });
      assert.equal(batch.code, 207);
      assert.equal(batch.status, 'partial');
      assert.equal(batch.successful_count, 1);
      assert.equal(batch.failed_count, 1);
      assert.equal(batch.feedback_ids!.length, 1);
      assert.deepEqual(
        batch.errors!.map((e) => [e.index, e.code]),
        [[1, 404]],
      );
    });

    it('feedback: bad input and other tenants are the documented errors', async () => {
      await assert.rejects(
        client.feedback.submit({
          search_id: 'nope',
          feedbackData: { feedbackType: 'thumbs_up', feedbackSource: 'inline' },
        }),
        status(404),
      );
      await assert.rejects(
        client.feedback.submit({
          search_id: 'nope',
          feedbackData: { feedbackType: 'love' as never, feedbackSource: 'inline' },
        }),
        (err) => status(422)(err) && JSON.stringify((err as APIError).error).includes('feedbackData.feedbackType'),
      );
      await assert.rejects(client.feedback.getByID('no-such-feedback'), status(404));
      const search = await client.memory.search({ query: 'bike', external_user_id: 'lena' });
      const mine = await client.feedback.submit({
        search_id: search.search_id!,
        feedbackData: { feedbackType: 'copy_action', feedbackSource: 'answer_panel' },
      });
      const other = new Papr({ xAPIKey: (await makeOrg(t.db)).key, baseURL, maxRetries: 0 });
      await assert.rejects(other.feedback.getByID(mine.feedback_id!), status(404));
      await assert.rejects(
        other.feedback.submit({
          search_id: search.search_id!,
          feedbackData: { feedbackType: 'thumbs_up', feedbackSource: 'inline' },
        }),
        status(404),
      );
    });

    it('telemetry.trackEvent stores the events; malformed ones are a 422', async () => {
      const tracked = await client.telemetry.trackEvent({
        events: [
          {
            event_name: 'memory_created',
            properties: { type: 'text', has_metadata: true },
            user_id: 'hashed-1',
            timestamp: Date.now(),
          },
          { event_name: 'search_performed' },
        ],
        anonymous_id: 'session-1',
      });
      assert.deepEqual(tracked, {
        success: true,
        events_received: 2,
        events_processed: 2,
        message: '2 of 2 events stored',
      });
      const [{ n }] = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM telemetry_events WHERE organization_id = $1',
        [t.orgId],
      );
      assert.equal(n, 2);
      await assert.rejects(client.telemetry.trackEvent({ events: [{ event_name: '' }] }), status(422));
    });

    it('instance: every method is a 501 the client does not retry; unknown and foreign namespaces 404', async () => {
      const retrying = new Papr({ xAPIKey: t.key, baseURL }); // the default: 2 retries
      const ns = await makeNamespace(t.db, t.orgId);
      const calls: [string, () => Promise<unknown>][] = [
        [`/v1/namespace/${ns}/instance`, () => retrying.namespace.instance.retrieve(ns)],
        [
          `/v1/namespace/${ns}/instance`,
          () =>
            retrying.namespace.instance.update(ns, {
              neo4j: { bolt_url: 'neo4j+s://x.databases.neo4j.io', password: 'pw' },
              provider: 'gcp',
              region: 'us-west1',
            }),
        ],
        [`/v1/namespace/${ns}/instance`, () => retrying.namespace.instance.delete(ns)],
        ['/v1/organization/instance', () => retrying.organization.instance.retrieve()],
        ['/v1/organization/instance', () => retrying.organization.instance.update({ provider: 'gcp' })],
        ['/v1/organization/instance', () => retrying.organization.instance.delete()],
      ];
      for (const [path, call] of calls) {
        const before = hits.get(path) ?? 0;
        await assert.rejects(call(), (err) => {
          assert.ok(status(501)(err), String(err));
          const body = (err as APIError).error as { code: number; details: { docs: string } };
          assert.equal(body.code, 501);
          assert.match(body.details.docs, /docs\/tenancy\.md/);
          assert.equal((err as APIError).headers?.get('x-should-retry'), 'false');
          return true;
        });
        assert.equal(hits.get(path), before + 1, `${path}: one request, no retry`);
      }
      await assert.rejects(client.namespace.instance.retrieve('no-such-namespace'), status(404));
      const other = await makeOrg(t.db);
      const foreign = await makeNamespace(t.db, other.organizationId);
      await assert.rejects(client.namespace.instance.retrieve(foreign), status(404));
      await assert.rejects(client.namespace.instance.delete(foreign), status(404));
      const nobody = new Papr({ xAPIKey: 'ek_org_doesnotexist0000000000000000000000000', baseURL, maxRetries: 0 });
      await assert.rejects(nobody.organization.instance.retrieve(), status(401));
    });

    it('GET /v1/memory (not a client method) through the client’s generic get: pages with next_cursor', async () => {
      type Page = { data: { memories: { content: string }[] }; next_cursor: string | null; has_more: boolean };
      const p1 = await client.get<Page>('/v1/memory', { query: { external_user_id: 'lena', limit: 2 } });
      assert.equal(p1.data.memories.length, 2);
      assert.equal(p1.has_more, true);
      const p2 = await client.get<Page>('/v1/memory', {
        query: { external_user_id: 'lena', limit: 2, cursor: p1.next_cursor },
      });
      assert.equal(p2.data.memories.length, 2);
      assert.notDeepEqual(p2.data.memories, p1.data.memories);
      await assert.rejects(client.get('/v1/memory', { query: { cursor: 'bogus' } }), status(422));
    });
  });
}
