import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { makeKey, makeNamespace, makeOrg, makeRevokedKey, makeSession } from '../../../test/factories.ts';
import { addMemory, post } from '../../../test/memory-helpers.ts';
import { waitFor } from '../../../test/wait.ts';
import { openStream } from '../../../test/ws-stream.ts';
import { buildWorker } from '../../app.ts';
import { createLogger } from '../../platform/log.ts';
import type { Worker } from '../../platform/jobs/index.ts';

const log = createLogger('silent');

for (const store of testStores) {
  describe(`WebSocket status streams [${store.name}]`, () => {
    const env = { WORKER_POLL_MS: '50', WS_AUTH_TIMEOUT_MS: '300', WS_POLL_MS: '60000' };
    let t: TestApp;
    let worker: Worker | null = null;

    const open = (path: string, headers?: Record<string, string>) => openStream(t, path, headers);
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

    it('a client sees its memory go from quick_saved to completed, then the stream closes', async () => {
      const id = await addMemory(t, { content: 'Streamed memory', external_user_id: 'ws-user' });
      const s = await open(`/ws/memory-status/${id}`);
      await waitFor(() => s.messages.length === 1);
      assert.deepEqual(
        {
          type: s.messages[0].type,
          resource: s.messages[0].resource,
          id: s.messages[0].memory_id,
          state: s.messages[0].processing_status,
        },
        { type: 'status', resource: 'memory', id, state: 'quick_saved' },
      );
      await startWorker();
      const { code } = await s.closed;
      assert.equal(code, 1000);
      const states = s.messages.map((m) => m.processing_status);
      assert.equal(states[0], 'quick_saved');
      assert.equal(states.at(-1), 'completed');
      assert.ok(
        states.every((x) => ['quick_saved', 'processing', 'completed'].includes(x)),
        states.join(),
      );
      assert.equal(new Set(states).size, states.length, 'one message per change');
      assert.ok(s.messages.at(-1).completed_at);
      await stopWorker();
    });

    it('authenticates with a first message when the upgrade had no credentials', async () => {
      const id = await addMemory(t, { content: 'Auth by message', external_user_id: 'ws-user' });
      const s = await open(`/ws/memory-status/${id}`, {});
      s.ws.send(JSON.stringify({ type: 'auth', api_key: t.key }));
      await waitFor(() => s.messages.length === 1);
      assert.equal(s.messages[0].memory_id, id);
      s.ws.close();
    });

    it('a batch stream reports progress and closes at the batch result', async () => {
      const res = await post(t, '/v1/memory/batch', {
        memories: [{ content: 'W1' }, { content: 'W2' }, { content: 'W3' }],
        external_user_id: 'ws-user',
      });
      const batchId = res.json().batch_id;
      const s = await open(`/ws/memory-status/batch/${batchId}`);
      await waitFor(() => s.messages.length === 1);
      assert.equal(s.messages[0].resource, 'batch');
      assert.equal(s.messages[0].processing_status, 'processing');
      assert.equal(s.messages[0].memories, undefined, 'pushes carry the summary, not every memory');
      await startWorker();
      assert.equal((await s.closed).code, 1000);
      const last = s.messages.at(-1);
      assert.deepEqual(
        { state: last.processing_status, done: last.progress.done, total: last.progress.total },
        { state: 'completed', done: 3, total: 3 },
      );
      await stopWorker();
    });

    it('refuses sockets that may not see the resource: 4401 / 4403 / 4404 with an error message', async () => {
      const id = await addMemory(t, { content: 'Private to the bootstrap org', external_user_id: 'ws-owner' });
      const other = await makeOrg(t.db);
      const otherNs = await makeNamespace(t.db, t.orgId);
      const cases: [string, Record<string, string>, number][] = [
        ['another organization', { 'x-api-key': other.key }, 4404],
        [
          'a namespace key of another namespace',
          { 'x-api-key': (await makeKey(t.db, t.orgId, { namespaceId: otherNs })).key },
          4404,
        ],
        ['a key without read', { 'x-api-key': (await makeKey(t.db, t.orgId, { permissions: ['write'] })).key }, 4403],
        ['a revoked key', { 'x-api-key': (await makeRevokedKey(t.db, t.orgId)).key }, 4401],
        ['a made-up key', { 'x-api-key': 'ek_org_nope' }, 4401],
        ['no credentials at all (auth timeout)', {}, 4401],
      ];
      for (const [name, headers, code] of cases) {
        for (const path of [`/ws/memory-status/${id}`, `/ws/memory-status/batch/${id}`]) {
          const s = await open(path, headers);
          const closed = await s.closed;
          assert.equal(closed.code, code, `${name} on ${path}`);
          assert.equal(s.messages.length, 1, `${name}: only the error message`);
          assert.deepEqual(
            { type: s.messages[0].type, code: s.messages[0].code, status: s.messages[0].status },
            { type: 'error', code: code - 4000, status: 'error' },
          );
        }
      }
      const wrongMessage = await open(`/ws/memory-status/${id}`, {});
      wrongMessage.ws.send(JSON.stringify({ type: 'auth', api_key: other.key }));
      assert.equal((await wrongMessage.closed).code, 4404);
    });

    it("an end user's own token streams only what it may read; another user's memory or batch is 4404", async () => {
      const gail = await makeSession(t.db, t.orgId, 'gail');
      const session = { 'x-session-token': gail.token };
      const hers = await addMemory(t, { content: 'Gail streams this.', external_user_id: 'gail' });
      const shared = await addMemory(t, {
        content: 'Hank shares this with Gail.',
        external_user_id: 'hank',
        policy: { acl: { read: ['external_user:gail'] } },
      });
      const his = await addMemory(t, { content: 'Hank keeps this.', external_user_id: 'hank' });
      const batch = async (memories: object[]) => (await post(t, '/v1/memory/batch', { memories })).json().batch_id;
      const herBatch = await batch([{ content: 'G1', external_user_id: 'gail' }]);
      const mixedBatch = await batch([
        { content: 'G2', external_user_id: 'gail' },
        { content: 'H2', external_user_id: 'hank' },
      ]);
      const seen = async (path: string, headers: Record<string, string> = session) => {
        const s = await open(path, headers);
        await waitFor(() => s.messages.length === 1);
        assert.equal(s.messages[0].type, 'status', `${path}: ${JSON.stringify(s.messages[0])}`);
        s.ws.close();
      };
      const refused = async (path: string, headers: Record<string, string> = session, message?: object) => {
        const s = await open(path, headers);
        if (message) s.ws.send(JSON.stringify(message));
        assert.equal((await s.closed).code, 4404, path);
        assert.deepEqual(
          s.messages.map((m) => [m.type, m.code]),
          [['error', 404]],
        );
      };
      await seen(`/ws/memory-status/${hers}`);
      await seen(`/ws/memory-status/${shared}`);
      await seen(`/ws/memory-status/batch/${herBatch}`);
      await refused(`/ws/memory-status/${his}`);
      await refused(`/ws/memory-status/batch/${mixedBatch}`);
      // The same when the token comes in the first message.
      await refused(`/ws/memory-status/${his}`, {}, { type: 'auth', session_token: gail.token });
      // The application's key beside her token is not limited to her.
      await seen(`/ws/memory-status/${his}`, { 'x-api-key': t.key, ...session });
      await seen(`/ws/memory-status/batch/${mixedBatch}`, { 'x-api-key': t.key, ...session });
    });

    if (store.name === 'postgres') {
      it('pushes travel by LISTEN/NOTIFY from a worker on another connection pool', async () => {
        // The API process here runs no worker; the worker has its own store connection, so the
        // only path from its commit to this socket is the NOTIFY.
        const { openDb } = await import('../../platform/db/index.ts');
        const id = await addMemory(t, { content: 'Cross-process push', external_user_id: 'ws-user' });
        const s = await open(`/ws/memory-status/${id}`);
        await waitFor(() => s.messages.length === 1);
        const url = (t.db as any).url as string | undefined;
        assert.ok(url, 'the test store exposes its URL');
        const db2 = await openDb({ DATABASE_URL: url, DATA_DIR: '/tmp/unused', DATABASE_POOL_SIZE: 2 });
        const w = buildWorker({ config: testConfig(env), db: db2, log });
        await w.start();
        assert.equal((await s.closed).code, 1000);
        assert.equal(s.messages.at(-1).processing_status, 'completed');
        await w.stop();
        await db2.close();
      });
    }
  });
}
