/**
 * The document and session status streams (docs/realtime.md) on both stores: an upload's and a
 * session's statuses pushed until they settle (WS_POLL_MS is a minute, so every message here
 * came from an event's NOTIFY), each message the body of the REST status route, and the same
 * refusals as the batch stream: another tenant's id, an unknown one, a key without `read`.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { post } from '../../../test/memory-helpers.ts';
import { uploadDocument } from '../../../test/multipart.ts';
import { waitFor } from '../../../test/wait.ts';
import { openStream } from '../../../test/ws-stream.ts';
import { buildWorker } from '../../app.ts';
import { createLogger } from '../../platform/log.ts';
import type { Worker } from '../../platform/jobs/index.ts';

const log = createLogger('silent');

const notes = [
  '# Field notes',
  '',
  'Erin counts puffins on Skomer island every May.',
  '',
  '## Gulls',
  '',
  'The herring gulls nest on the western cliffs and leave by August.',
].join('\n');

/** A REST body and a pushed message carry the same fields; the message adds its type and resource. */
const body = ({ type: _t, resource: _r, ...rest }: Record<string, unknown>) => rest;

for (const store of testStores) {
  describe(`WebSocket document and session streams [${store.name}]`, () => {
    const env = { WORKER_POLL_MS: '50', WS_AUTH_TIMEOUT_MS: '300', WS_POLL_MS: '60000', OCR: 'off' };
    let t: TestApp;
    let worker: Worker | null = null;

    const open = (path: string, headers?: Record<string, string>) => openStream(t, path, headers);
    const get = async (url: string, key = t.key) =>
      (await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } })).json();
    const upload = (name: string, text: string, user = 'ws-doc-user') =>
      uploadDocument(t, { name, bytes: text, type: 'text/markdown' }, { external_user_id: user });
    const message = async (session: string, content: string, user = 'ws-chat-user') => {
      const res = await post(t, '/v1/messages', { session_id: session, role: 'user', content, external_user_id: user });
      assert.equal(res.statusCode, 200, res.body);
    };
    const startWorker = async () => {
      worker = buildWorker({ config: testConfig(env), db: t.db, log });
      await worker.start();
    };
    const stopWorker = async () => {
      await worker?.stop();
      worker = null;
    };

    before(async () => {
      t = await startApp(store, { env });
    });
    after(async () => {
      await stopWorker();
      await t.close();
    });

    it("a document's statuses arrive as GET /v1/document/status answers them, until it completes", async () => {
      const id = await upload('notes.md', notes);
      const s = await open(`/ws/memory-status/document/${id}`);
      await waitFor(() => s.messages.length === 1);
      assert.deepEqual(
        { type: s.messages[0].type, resource: s.messages[0].resource },
        { type: 'status', resource: 'document' },
      );
      // Nothing runs yet: the first push is exactly the REST body.
      assert.deepEqual(body(s.messages[0]), await get(`/v1/document/status/${id}`));
      assert.equal(s.messages[0].status, 'queued');
      await startWorker();
      const { code } = await s.closed;
      assert.equal(code, 1000);
      const states = s.messages.map((m) => m.status);
      assert.equal(states.at(-1), 'completed', states.join());
      assert.ok(
        states.every((x) => ['queued', 'processing', 'completed'].includes(x)),
        states.join(),
      );
      assert.ok(states.includes('processing'), `the processing step is pushed too: ${states.join()}`);
      const progress = s.messages.map((m) => m.progress);
      assert.deepEqual(
        progress,
        [...progress].sort((a, b) => a - b),
        'progress never goes back',
      );
      assert.equal(new Set(s.messages.map((m) => JSON.stringify(m))).size, s.messages.length, 'one message per change');
      const last = s.messages.at(-1);
      assert.deepEqual(body(last), await get(`/v1/document/status/${id}`));
      assert.ok(last.chunks.stored >= 1 && last.memories.completed === last.memories.total, JSON.stringify(last));
      await stopWorker();
    });

    it("a session's message processing arrives as …/status answers it, until nothing is queued", async () => {
      const session = 'ws-trip';
      await message(session, 'Book me a table in Porto for Friday.');
      await message(session, 'Make it for two people at 8 pm.');
      await message(session, 'And a taxi from the hotel at 7:30.');
      const s = await open(`/ws/memory-status/session/${session}`);
      await waitFor(() => s.messages.length === 1);
      assert.deepEqual(
        { type: s.messages[0].type, resource: s.messages[0].resource },
        { type: 'status', resource: 'session' },
      );
      assert.deepEqual(body(s.messages[0]), await get(`/v1/messages/sessions/${session}/status`));
      assert.equal(s.messages[0].processing.queued, 3);
      // A message stored while the stream is open is pushed by its own event.
      await message(session, 'Also remind me to pack sunscreen.');
      await waitFor(() => s.messages.length === 2);
      assert.equal(s.messages[1].message_count, 4);
      assert.equal(s.messages[1].processing.queued, 4);
      // So is a change of its title.
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/v1/messages/sessions/${session}`,
        headers: { 'x-api-key': t.key },
        payload: { title: 'Porto trip' },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      await waitFor(() => s.messages.length === 3);
      assert.equal(s.messages[2].title, 'Porto trip');
      await startWorker();
      assert.equal((await s.closed).code, 1000);
      const last = s.messages.at(-1);
      assert.deepEqual(last.processing, { unprocessed: 0, queued: 0, analyzing: 0, completed: 4, failed: 0 });
      assert.deepEqual(body(last), await get(`/v1/messages/sessions/${session}/status`));
      const queued = s.messages.map((m) => m.processing.queued + m.processing.analyzing);
      assert.ok(
        queued.every((n, i) => i < 3 || n <= queued[i - 1]),
        `work left only shrinks once processing runs: ${queued.join()}`,
      );
      await stopWorker();
    });

    it("refuses another tenant's, namespace's or user's ids and unknown ids (4404), a key without read", async () => {
      const upload1 = await upload('private.md', '# Private\n\nOnly this organization reads this.', 'ws-owner');
      await message('ws-private', 'Nobody else sees this session.', 'ws-owner');
      const other = await makeOrg(t.db);
      const otherNs = await makeNamespace(t.db, t.orgId);
      const stranger = await makeSession(t.db, t.orgId, 'ws-stranger');
      const cases: [string, string, Record<string, string>, number][] = [];
      for (const path of [`/ws/memory-status/document/${upload1}`, '/ws/memory-status/session/ws-private']) {
        cases.push(
          ['another organization', path, { 'x-api-key': other.key }, 4404],
          [
            'a namespace key of another namespace',
            path,
            { 'x-api-key': (await makeKey(t.db, t.orgId, { namespaceId: otherNs })).key },
            4404,
          ],
          ["another end user's token", path, { 'x-session-token': stranger.token }, 4404],
          [
            'a key without read',
            path,
            { 'x-api-key': (await makeKey(t.db, t.orgId, { permissions: ['write'] })).key },
            4403,
          ],
        );
      }
      cases.push(
        ['an unknown upload', '/ws/memory-status/document/no-such-upload', { 'x-api-key': t.key }, 4404],
        ['an unknown session', '/ws/memory-status/session/no-such-session', { 'x-api-key': t.key }, 4404],
      );
      for (const [name, path, headers, code] of cases) {
        const s = await open(path, headers);
        const closed = await s.closed;
        assert.equal(closed.code, code, `${name} on ${path}`);
        assert.equal(s.messages.length, 1, `${name} on ${path}: only the error message`);
        const m = s.messages[0];
        assert.deepEqual(
          Object.keys(m).sort(),
          ['code', 'details', 'error', 'status', 'type'],
          `${name}: the envelope`,
        );
        assert.deepEqual(
          { type: m.type, code: m.code, status: m.status },
          { type: 'error', code: code - 4000, status: 'error' },
        );
        assert.equal(typeof m.error, 'string');
      }
      // An id its status route would refuse as malformed is refused before the upgrade, alike.
      for (const path of ['document', 'session']) {
        const url = `/ws/memory-status/${path}/${'x'.repeat(300)}`;
        const res = await t.app.inject({ url, headers: { 'x-api-key': t.key } });
        assert.equal(res.statusCode, 422, url);
        assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'details', 'error', 'status']);
        await assert.rejects(t.app.injectWS(url, { headers: { 'x-api-key': t.key } }), /422/);
      }
      // The owner's key still streams both (and their REST routes agree).
      for (const path of [`/ws/memory-status/document/${upload1}`, '/ws/memory-status/session/ws-private']) {
        const s = await open(path);
        await waitFor(() => s.messages.length === 1);
        assert.equal(s.messages[0].type, 'status', path);
        s.ws.close();
      }
    });
  });
}
