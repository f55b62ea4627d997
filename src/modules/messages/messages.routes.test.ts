import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildWorker } from '../../app.ts';
import { createLogger } from '../../platform/log.ts';
import type { Worker } from '../../platform/jobs/index.ts';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeNamespace, makeSession } from '../../../test/factories.ts';
import { waitFor as waitForDefault } from '../../../test/wait.ts';

/** The worker's jobs load models on first use: slow on a busy machine. */
const waitFor = <T>(fn: () => T | PromiseLike<T>) => waitForDefault(fn, { timeoutMs: 60_000 });

const turns = [
  'Hi! I just got back from Lisbon, where I spent two weeks in May 2023.',
  'That sounds lovely. What did you like most about Lisbon?',
  'The tiles and the old trams. We decided to go back next spring with the kids.',
];

for (const store of testStores) {
  describe(`messages [${store.name}]`, () => {
    let t: TestApp;
    let worker: Worker | null = null;
    const log = createLogger('silent');
    before(async () => {
      t = await startApp(store);
    });
    after(async () => {
      await worker?.stop();
      await t.close();
    });
    const call = (
      method: any,
      url: string,
      payload?: unknown,
      headers: Record<string, string> = { 'x-api-key': t.key },
    ) => t.app.inject({ method, url, headers, payload: payload as any });
    const send = (sessionId: string, content: unknown, extra: Record<string, unknown> = {}) =>
      call('POST', '/v1/messages', { sessionId, role: 'user', content, external_user_id: 'maya', ...extra });
    const startWorker = async () => {
      worker ??= buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log });
      await worker.start();
    };
    const session = (id: string, suffix = '', query = '') =>
      call('GET', `/v1/messages/sessions/${encodeURIComponent(id)}${suffix}${query}`);

    it('stores messages, creating the session on the first one; history is newest first', async () => {
      const first = await send('trip-1', turns[0], { title: 'Lisbon' });
      assert.equal(first.statusCode, 200, first.body);
      const m = first.json();
      assert.equal(m.sessionId, 'trip-1');
      assert.equal(m.role, 'user');
      assert.equal(m.content, turns[0]);
      assert.equal(m.processing_status, 'queued');
      assert.ok(m.objectId && !Number.isNaN(Date.parse(m.createdAt)));
      // The spec's name, and content as a list of parts.
      const second = await call('POST', '/v1/messages', {
        session_id: 'trip-1',
        role: 'assistant',
        content: [{ type: 'text', text: turns[1] }],
        external_user_id: 'maya',
      });
      assert.equal(second.statusCode, 200, second.body);
      assert.deepEqual(second.json().content, [{ type: 'text', text: turns[1] }]);
      await send('trip-1', turns[2]);

      const history = (await session('trip-1')).json();
      assert.equal(history.sessionId, 'trip-1');
      assert.equal(history.title, 'Lisbon');
      assert.equal(history.total_count, 3);
      assert.deepEqual(
        history.messages.map((x: { role: string }) => x.role),
        ['user', 'assistant', 'user'],
      );
      assert.equal(history.messages[0].content, turns[2], 'newest first');
      assert.match(history.context_for_llm, /user: Hi! I just got back from Lisbon/);
      const page = (await session('trip-1', '', '?limit=1&skip=1')).json();
      assert.equal(page.messages.length, 1);
      assert.equal(page.messages[0].content[0].text, turns[1]);
      assert.equal(page.total_count, 3);
    });

    it('refuses bad input with the envelope: no session, bad role, empty content', async () => {
      const noSession = await call('POST', '/v1/messages', { role: 'user', content: 'x', external_user_id: 'maya' });
      assert.equal(assertEnvelope(noSession, 422).details.field, 'sessionId');
      const badRole = await call('POST', '/v1/messages', { sessionId: 's', role: 'system', content: 'x' });
      assert.ok([400, 422].includes(badRole.statusCode), badRole.body);
      assertEnvelope(badRole, badRole.statusCode);
      assertEnvelope(await send('s-empty', '   '), 422);
      assertEnvelope(await send('s-empty', [{ type: 'image', image_url: 'x' }]), 422);
      const clash = await call('POST', '/v1/messages', { sessionId: 'a', session_id: 'b', role: 'user', content: 'x' });
      assertEnvelope(clash, 422);
      // What the memory write refuses (a conflicting manual graph) is refused here, not failed later.
      const badGraph = await send('s-empty', 'Ana works at Acme.', {
        memory_policy: { mode: 'manual', nodes: [{ id: 'a', type: 'Person', label: 'Company', properties: {} }] },
      });
      assertEnvelope(badGraph, 422);
      assert.equal((await session('s-empty')).statusCode, 404, 'nothing was stored');
    });

    it("another user cannot append to or read a session; another tenant's key gets 404", async () => {
      await send('private-1', 'My bank PIN hint is the name of my first cat.');
      assertEnvelope(await send('private-1', 'appending as someone else', { external_user_id: 'eve' }), 404);
      const eve = await makeSession(t.db, t.orgId, 'eve');
      const asEve = { 'x-session-token': eve.token };
      assertEnvelope(await call('GET', '/v1/messages/sessions/private-1', undefined, asEve), 404);
      const maya = await makeSession(t.db, t.orgId, 'maya');
      const asMaya = { 'x-session-token': maya.token };
      assert.equal((await call('GET', '/v1/messages/sessions/private-1', undefined, asMaya)).statusCode, 200);
      const history = (await session('private-1')).json();
      assert.equal(history.total_count, 1, 'the refused append stored nothing');
    });

    const kit = authKitFor(() => t);
    // Another organization's key stores into a session of its own of the same name, never ours.
    kit(
      'store',
      'POST',
      () => '/v1/messages',
      'write',
      () => ({ sessionId: 'kit', role: 'user', content: 'hello' }),
      async (res, app) => {
        assert.equal(res.statusCode, 200, res.body);
        const headers = { 'x-api-key': app.key };
        assertEnvelope(await app.app.inject({ method: 'GET', url: '/v1/messages/sessions/kit', headers }), 404);
      },
    );
    kit('history', 'GET', () => '/v1/messages/sessions/trip-1', 'read');
    kit('compress', 'GET', () => '/v1/messages/sessions/trip-1/compress', 'read');
    kit('status', 'GET', () => '/v1/messages/sessions/trip-1/status', 'read');
    kit('process', 'POST', () => '/v1/messages/sessions/trip-1/process', 'write');
    kit(
      'update',
      'PATCH',
      () => '/v1/messages/sessions/trip-1',
      'write',
      () => ({ title: 'x' }),
    );

    it('makes queued messages into memories with the session id, role and time; idempotently', async () => {
      await startWorker();
      await waitFor(async () => {
        const h = (await session('trip-1')).json();
        return h.messages.every((x: { processing_status: string }) => x.processing_status === 'completed');
      });
      const memories = await t.db.query<{ id: string; content: string; metadata: Record<string, unknown> }>(
        `SELECT id, content, metadata FROM memories WHERE metadata->>'sessionId' = 'trip-1' ORDER BY occurred_at`,
      );
      assert.deepEqual(
        memories.map((x) => x.content),
        turns,
      );
      assert.deepEqual(
        memories.map((x) => x.metadata.role),
        ['user', 'assistant', 'user'],
      );
      const history = (await session('trip-1')).json();
      assert.deepEqual(
        new Set(history.messages.map((x: { memoryId: string }) => x.memoryId)),
        new Set(memories.map((x) => x.id)),
      );
      // The same job again (a crash after its work): nothing new.
      await t.db.query(
        `INSERT INTO jobs (id, kind, organization_id, payload, status)
         SELECT 'again-' || id, 'message.memorize', organization_id, jsonb_build_object('session_id', id), 'queued'
         FROM chat_sessions WHERE session_key = 'trip-1'`,
      );
      await waitFor(
        async () => (await t.db.query(`SELECT 1 FROM jobs WHERE id LIKE 'again-%' AND status = 'completed'`)).length,
      );
      const again = await t.db.query(`SELECT id FROM memories WHERE metadata->>'sessionId' = 'trip-1'`);
      assert.equal(again.length, 3);
      // A job whose worker died after claiming a message: its rerun (same job id) takes it up.
      const late = (
        await send('trip-1', 'One more thing: the hotel was in Alfama.', { process_messages: false })
      ).json();
      await t.db.query(`UPDATE chat_messages SET state = 'claimed', job_id = 'crashed-job' WHERE id = $1`, [
        late.objectId,
      ]);
      await t.db.query(
        `INSERT INTO jobs (id, kind, organization_id, payload, status)
         SELECT 'crashed-job', 'message.memorize', organization_id, jsonb_build_object('session_id', id), 'queued'
         FROM chat_sessions WHERE session_key = 'trip-1'`,
      );
      await waitFor(async () => (await session('trip-1')).json().messages[0].memoryId);
      const four = await t.db.query(`SELECT id FROM memories WHERE metadata->>'sessionId' = 'trip-1'`);
      assert.equal(four.length, 4);
    });

    it('keeps process_messages false unprocessed until …/process, which queues them', async () => {
      await send('later-1', 'Remember that the boiler was serviced on 3 March.', { process_messages: false });
      const stored = (await session('later-1')).json();
      assert.equal(stored.messages[0].processing_status, 'unprocessed');
      const status = (await session('later-1', '/status')).json();
      assert.equal(status.processing.unprocessed, 1);
      const res = await call('POST', '/v1/messages/sessions/later-1/process');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().queued, 1);
      await startWorker();
      await waitFor(async () => (await session('later-1')).json().messages[0].processing_status === 'completed');
      assert.equal((await call('POST', '/v1/messages/sessions/later-1/process')).json().queued, 0);
      assert.equal((await session('later-1', '/status')).json().processing.completed, 1);
    });

    it('summarises every 15 messages; compress answers from the stored summary, computes when stale', async () => {
      for (let i = 1; i <= 15; i++)
        await send('long-1', `Message ${i}: we discussed the Atlas project budget of ${i * 1000} euros.`, {
          process_messages: false,
        });
      await startWorker();
      const summarised = await waitFor(async () => {
        const s = (await session('long-1', '/status')).json();
        return s.summarized_count === 15 ? s : null;
      });
      assert.ok(summarised.last_summary_at);
      const cached = (await session('long-1', '/compress')).json();
      assert.equal(cached.from_cache, true);
      assert.equal(cached.session_id, 'long-1');
      assert.equal(cached.message_count, 15);
      assert.match(cached.summaries.long_term, /Atlas/);
      assert.ok(cached.ai_agent_note.includes('15 of 15'));
      await send('long-1', 'Message 16: the deadline moved to Friday.', { process_messages: false });
      const fresh = (await session('long-1', '/compress')).json();
      assert.equal(fresh.from_cache, false);
      assert.equal(fresh.message_count, 16);
      assert.equal((await session('long-1', '/compress')).json().from_cache, true, 'stored by the first call');
      const history = (await session('long-1')).json();
      assert.ok(history.summaries.short_term.length > 0);
      assert.match(history.context_for_llm, /## Conversation so far/);
    });

    it('PATCH changes the title and merges metadata', async () => {
      await call('PATCH', '/v1/messages/sessions/trip-1', { metadata: { channel: 'web', a: 1 } });
      const res = await call('PATCH', '/v1/messages/sessions/trip-1', { title: 'Lisbon, May', metadata: { a: 2 } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().metadata, { channel: 'web', a: 2 });
      assert.equal((await session('trip-1')).json().title, 'Lisbon, May');
      assertEnvelope(await call('PATCH', '/v1/messages/sessions/nope', { title: 'x' }), 404);
    });

    it('deleting the user (or all their memories) or the namespace removes their sessions and says so', async () => {
      const ns = await makeNamespace(t.db, t.orgId);
      await send('ns-session', 'In the namespace', {
        namespace_id: ns,
        external_user_id: 'nina',
        process_messages: false,
      });
      const gone = await call('DELETE', `/v1/namespace/${ns}`);
      assert.equal(gone.statusCode, 200, gone.body);
      assert.equal(gone.json().cascade.sessions_deleted, 1);
      assert.equal(gone.json().cascade.messages_deleted, 1);
      assertEnvelope(await session('ns-session'), 404);

      await send('zed-1', 'one', { external_user_id: 'zed', process_messages: false });
      await send('zed-1', 'two', { external_user_id: 'zed', process_messages: false });
      const res = await call('DELETE', '/v1/user?external_user_id=zed');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().sessions_deleted, 1);
      assert.equal(res.json().messages_deleted, 2);
      assertEnvelope(await session('zed-1'), 404);
      await send('yan-1', 'kept until delete-all', { external_user_id: 'yan', process_messages: false });
      const all = await call('DELETE', '/v1/memory/all?external_user_id=yan');
      assert.equal(all.statusCode, 200, all.body);
      assert.deepEqual(all.json().details, { sessions_deleted: 1, messages_deleted: 1 });
      assertEnvelope(await session('yan-1'), 404);
      const rows = await t.db.query(`SELECT 1 FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_id
        WHERE s.session_key = 'zed-1'`);
      assert.equal(rows.length, 0);
    });
  });
}
