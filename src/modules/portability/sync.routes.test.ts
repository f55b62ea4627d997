import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { sleep, waitFor } from '../../../test/wait.ts';
import { newId } from '../../shared/ids.ts';
import { pruneTombstones } from './index.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

type Call = (method: string, url: string, payload?: unknown, headers?: Record<string, string>) => Promise<any>;

/** A client's copy of a scope: apply every page of the feed from `cursor` until has_more is false. */
async function pull(
  call: Call,
  query: string,
  copy: Map<string, string>,
  cursor: string | null,
  headers?: Record<string, string>,
) {
  for (;;) {
    const url = `/v1/sync/delta?${query}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await call('GET', url, undefined, headers);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json();
    const upserted = new Set(page.upserts.map((m: { id: string }) => m.id));
    for (const d of page.deletes) assert.ok(!upserted.has(d.id), 'a page never upserts and deletes one memory');
    for (const m of page.upserts) copy.set(m.id, m.content);
    for (const d of page.deletes) {
      assert.equal(d.deleted, true);
      assert.ok(!Number.isNaN(Date.parse(d.deleted_at)));
      copy.delete(d.id);
    }
    cursor = page.next_cursor as string;
    if (!page.has_more) return cursor;
  }
}

/** A tiny seeded generator (the interleaving is the same on every run). */
function prng(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

for (const store of testStores) {
  describe(`sync delta [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(async () => t.close());
    const call: Call = (method, url, payload, headers = { 'x-api-key': t.key }) =>
      t.app.inject({ method: method as any, url, headers, payload: payload as any });
    const add = async (body: Record<string, unknown>, headers?: Record<string, string>) => {
      const res = await call('POST', '/v1/memory?skip_background_processing=true', body, headers);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data[0].memoryId as string;
    };
    /** What the server holds for a scope, as id → content (SQL: the truth the copy must match). */
    const truth = async (where: string, params: unknown[]) =>
      new Map(
        (
          await t.db.query<{ id: string; content: string }>(
            `SELECT id, content FROM memories WHERE organization_id = $1 AND ${where}`,
            [t.orgId, ...params],
          )
        ).map((r) => [r.id, r.content]),
      );
    /** The ACL entries a user is read by (search's rule). */
    const readerOf = (userId: string, external: string) => [
      `organization:${t.orgId}`,
      `user:${userId}`,
      `external_user:${external}`,
    ];
    /** Pull until the copy equals the truth (a long transaction elsewhere on the server only delays the feed). */
    const converge = async (
      query: string,
      copy: Map<string, string>,
      cursor: string | null,
      expected: () => Promise<Map<string, string>>,
      headers?: Record<string, string>,
    ) => {
      let c = cursor;
      await waitFor(
        async () => {
          c = await pull(call, query, copy, c, headers);
          const want = await expected();
          return want.size === copy.size && [...want].every(([id, content]) => copy.get(id) === content);
        },
        { what: `the copy of ${query || 'the organization'} equals the server's` },
      );
      return c!;
    };

    it('a copy applying every page (creates, updates, moves, deletes interleaved) equals the server', async () => {
      const ns = [await makeNamespace(t.db, t.orgId), await makeNamespace(t.db, t.orgId)];
      const rand = prng(21);
      const users = ['sync-ana', 'sync-ben'];
      const live: { id: string; user: string }[] = [];
      const copies = {
        org: { query: 'limit=3', copy: new Map<string, string>(), cursor: null as string | null },
        ana: {
          query: 'limit=2&external_user_id=sync-ana',
          copy: new Map<string, string>(),
          cursor: null as string | null,
        },
        ns0: { query: `limit=4&namespace_id=${ns[0]}`, copy: new Map<string, string>(), cursor: null as string | null },
      };
      for (let step = 0; step < 60; step++) {
        const r = rand();
        if (r < 0.4 || live.length < 3) {
          const user = users[Math.floor(rand() * 2)];
          const body: Record<string, unknown> = {
            content: `Note ${step} of ${user}: item ${Math.floor(rand() * 1000)}`,
            external_user_id: user,
          };
          if (rand() < 0.6) body.namespace_id = ns[Math.floor(rand() * 2)];
          // Some of Ben's notes are shared with Ana: they belong to her copy too.
          if (user === 'sync-ben' && rand() < 0.3) body.policy = { acl: { read: ['external_user:sync-ana'] } };
          live.push({ id: await add(body), user });
        } else if (r < 0.65) {
          const m = live[Math.floor(rand() * live.length)];
          const res = await call('PUT', `/v1/memory/${m.id}`, { content: `Edited at ${step}` });
          assert.equal(res.statusCode, 200, res.body);
        } else if (r < 0.8) {
          const m = live[Math.floor(rand() * live.length)];
          const res = await call('PUT', `/v1/memory/${m.id}`, { namespace_id: ns[Math.floor(rand() * 2)] });
          assert.equal(res.statusCode, 200, res.body);
        } else {
          const [m] = live.splice(Math.floor(rand() * live.length), 1);
          assert.equal((await call('DELETE', `/v1/memory/${m.id}`)).statusCode, 200);
        }
        if (step % 7 === 3)
          for (const c of Object.values(copies)) c.cursor = await pull(call, c.query, c.copy, c.cursor);
      }
      const ana = (
        await t.db.query<{ id: string }>('SELECT id FROM users WHERE organization_id = $1 AND external_id = $2', [
          t.orgId,
          'sync-ana',
        ])
      )[0].id;
      await converge(copies.org.query, copies.org.copy, copies.org.cursor, () => truth('true', []));
      await converge(copies.ns0.query, copies.ns0.copy, copies.ns0.cursor, () => truth('namespace_id = $2', [ns[0]]));
      await converge(copies.ana.query, copies.ana.copy, copies.ana.cursor, () =>
        truth(`(user_id = $2 OR (acl_read && $3::text[] AND risk <> 'flagged'))`, [ana, readerOf(ana, 'sync-ana')]),
      );
      assert.ok(copies.ns0.copy.size > 0 && copies.ana.copy.size > 0, 'the scopes are not empty');
    });

    it('every delete path leaves a tombstone: one memory, all of a user, a user, a namespace', async () => {
      const ns = await makeNamespace(t.db, t.orgId);
      const nsKept = await makeNamespace(t.db, t.orgId);
      const ids = {
        one: await add({ content: 'Delete me alone', external_user_id: 'del-a' }),
        all: await add({ content: 'All of del-b goes', external_user_id: 'del-b' }),
        user: await add({ content: 'The user del-c goes', external_user_id: 'del-c' }),
        ns: await add({ content: 'The namespace goes', external_user_id: 'del-d', namespace_id: ns }),
        kept: await add({ content: 'Detached from its namespace', external_user_id: 'del-e', namespace_id: nsKept }),
      };
      const copy = new Map<string, string>();
      const nsCopy = new Map<string, string>();
      const cursor = await converge('', copy, null, () => truth('true', []));
      const nsCursor = await converge(`namespace_id=${nsKept}`, nsCopy, null, () =>
        truth('namespace_id = $2', [nsKept]),
      );
      assert.ok(Object.values(ids).every((id) => copy.has(id)));
      assert.equal((await call('DELETE', `/v1/memory/${ids.one}`)).statusCode, 200);
      assert.equal((await call('DELETE', '/v1/memory/all?external_user_id=del-b')).statusCode, 200);
      assert.equal((await call('DELETE', '/v1/user/del-c?is_external=true')).statusCode, 200);
      assert.equal((await call('DELETE', `/v1/namespace/${ns}?delete_memories=true`)).statusCode, 200);
      assert.equal((await call('DELETE', `/v1/namespace/${nsKept}?delete_memories=false`)).statusCode, 200);
      await converge('', copy, cursor, () => truth('true', []));
      for (const k of ['one', 'all', 'user', 'ns'] as const) assert.ok(!copy.has(ids[k]), `${k} is gone from the copy`);
      assert.ok(copy.has(ids.kept), 'a detached memory stays in the organization');
      await converge(`namespace_id=${nsKept}`, nsCopy, nsCursor, () => truth('namespace_id = $2', [nsKept]));
      assert.ok(!nsCopy.has(ids.kept), 'and leaves the namespace copy');
    });

    it('every statement deleting memories leaves tombstones; an organization’s own deletion none', async () => {
      const res = await call('POST', '/v1/memory/batch?skip_background_processing=true', {
        external_user_id: 'batch-del',
        memories: [{ content: 'Batch one' }, { content: 'Batch two' }],
      });
      assert.equal(res.statusCode, 200, res.body);
      const batchId = res.json().batch_id as string;
      const copy = new Map<string, string>();
      const cursor = await converge('external_user_id=batch-del', copy, null, () =>
        truth(`external_user_id = 'batch-del'`, []),
      );
      assert.equal(copy.size, 2);
      // What a document's cancellation runs (deleteBatchMemories): no code of ours writes the tombstones.
      await t.db.query('DELETE FROM memories WHERE organization_id = $1 AND batch_id = $2', [t.orgId, batchId]);
      await converge('external_user_id=batch-del', copy, cursor, async () => new Map());
      const gone = await makeOrg(t.db);
      await add({ content: 'In an organization about to go' }, { 'x-api-key': gone.key });
      await t.db.query('DELETE FROM organizations WHERE id = $1', [gone.organizationId]);
      const [{ n }] = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM memory_tombstones WHERE organization_id = $1',
        [gone.organizationId],
      );
      assert.equal(n, 0);
    });

    it('never loses a change that commits after a later one (a transaction held open)', async () => {
      const copy = new Map<string, string>();
      let cursor = await converge('', copy, null, () => truth('true', []));
      const user = (
        await t.db.query<{ id: string }>('SELECT id FROM users WHERE organization_id = $1 LIMIT 1', [t.orgId])
      )[0].id;
      const slowId = newId();
      const insertSlow = `INSERT INTO memories (id, organization_id, user_id, content, content_bytes, status)
                          VALUES ($1, $2, $3, 'Written by the slow transaction', 30, 'completed')`;
      if (store.name === 'postgres') {
        // A second connection: its transaction takes its position first and commits last.
        const slow = new pg.Client({ connectionString: (t.db as unknown as { url: string }).url });
        await slow.connect();
        try {
          await slow.query('BEGIN');
          await slow.query(insertSlow, [slowId, t.orgId, user]);
          const fastId = await add({ content: 'Written and committed meanwhile', external_user_id: 'fast' });
          // Read past the fast change while the slow one is open: it is held back, not handed out.
          cursor = await pull(call, '', copy, cursor);
          assert.ok(!copy.has(slowId));
          assert.ok(!copy.has(fastId), 'a change above the oldest open transaction waits');
          const { xid } = decodeCursor(cursor);
          const [{ x }] = await t.db.query<{ x: string }>('SELECT sync_xid::text AS x FROM memories WHERE id = $1', [
            fastId,
          ]);
          assert.ok(BigInt(x) > xid);
          await slow.query('COMMIT');
          await converge('', copy, cursor, () => truth('true', []));
          assert.ok(copy.has(slowId) && copy.has(fastId), 'both arrive once the slow one commits');
        } finally {
          await slow.end();
        }
      } else {
        // PGlite runs one transaction at a time: a read asked for while one is open waits for its commit.
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        let inside!: () => void;
        const started = new Promise<void>((r) => (inside = r));
        const slow = t.db.transaction(async (tx) => {
          await tx.query(insertSlow, [slowId, t.orgId, user]);
          inside();
          await gate;
        });
        await started;
        const read = pull(call, '', copy, cursor);
        await sleep(100); // the read's statements are queued behind the open transaction
        release();
        await slow;
        cursor = await read;
        assert.ok(copy.has(slowId), 'the read waited for the open transaction and saw its change');
      }
    });

    it('include_embeddings: float32 unit vectors, or int8 with a scale that gives them back', async () => {
      const id = await add({ content: 'Embeddings travel with the memory in the feed.', external_user_id: 'emb' });
      // The feed holds a change back while an older transaction anywhere on the server is open (other
      // test files share it): read until the memory is there.
      const page = async (format: string) => {
        let found: Record<string, unknown> & { embedding?: number[] } = {};
        await waitFor(
          async () => {
            const res = await call(
              'GET',
              `/v1/sync/delta?external_user_id=emb&include_embeddings=true&embedding_format=${format}`,
            );
            assert.equal(res.statusCode, 200, res.body);
            found = res.json().upserts.find((m: { id: string }) => m.id === id);
            return !!found;
          },
          { what: `the ${format} page holds the memory` },
        );
        return found as any;
      };
      const f = await page('float32');
      assert.ok(Array.isArray(f.embedding) && f.embedding.length > 10);
      assert.ok(Math.abs(Math.hypot(...f.embedding) - 1) < 1e-4);
      assert.equal(typeof f.embedding_model, 'string');
      const q = await page('int8');
      assert.equal(q.embedding, undefined);
      assert.ok(q.embedding_int8.every((x: number) => Number.isInteger(x) && x >= -127 && x <= 127));
      q.embedding_int8.forEach((x: number, i: number) =>
        assert.ok(Math.abs(x * q.embedding_scale - f.embedding[i]) <= q.embedding_scale),
      );
      const plain = (await call('GET', '/v1/sync/delta?external_user_id=emb')).json().upserts[0];
      assert.equal(plain.embedding, undefined);
    });

    it('bad input: malformed, foreign or future cursors are 422, bad limits 4xx, an expired cursor 410', async () => {
      for (const bad of [
        'nope',
        '!!!',
        encodeURIComponent(Buffer.from('v2:1:2').toString('base64url')),
        'a'.repeat(600),
      ]) {
        const res = await call('GET', `/v1/sync/delta?cursor=${bad}`);
        assertEnvelope(res, 422);
      }
      assertEnvelope(await call('GET', `/v1/sync/delta?cursor=${encodeCursor({ xid: 2n ** 62n, seq: 1n })}`), 422);
      for (const limit of ['0', '1001', 'x', '-1'])
        assertEnvelope(await call('GET', `/v1/sync/delta?limit=${limit}`), 422);
      assertEnvelope(await call('GET', '/v1/sync/delta?embedding_format=fp16'), 422);
      // Empty values are absent.
      assert.equal((await call('GET', '/v1/sync/delta?cursor=&limit=&namespace_id=')).statusCode, 200);

      const id = await add({ content: 'Soon deleted, soon forgotten', external_user_id: 'old' });
      const copy = new Map<string, string>();
      const before = await converge(
        'external_user_id=old',
        copy,
        null,
        async () => new Map([[id, 'Soon deleted, soon forgotten']]),
      );
      assert.equal((await call('DELETE', `/v1/memory/${id}`)).statusCode, 200);
      await t.db.query(`UPDATE memory_tombstones SET deleted_at = now() - interval '400 days' WHERE memory_id = $1`, [
        id,
      ]);
      assert.ok((await pruneTombstones(t.db, 90)) >= 1);
      const expired = assertEnvelope(await call('GET', `/v1/sync/delta?external_user_id=old&cursor=${before}`), 410);
      assert.equal(expired.details.resync, 'POST /v1/sync/tiers');
      // Starting again works, and so does a cursor taken after the pruned delete — once every
      // transaction older than the delete has ended: a fresh cursor is "everything below the
      // server's oldest running transaction", and a test running beside this one on the same
      // PostgreSQL server may hold that below the delete (recent here, its age faked above).
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        const fresh = (await call('GET', '/v1/sync/delta?external_user_id=old')).json();
        assert.equal(fresh.upserts.length, 0);
        status = (await call('GET', `/v1/sync/delta?cursor=${fresh.next_cursor}`)).statusCode;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(status, 200);
    });

    it('scope: namespace keys and end users see only theirs; naming others 403; other tenants none', async () => {
      const ns = await makeNamespace(t.db, t.orgId);
      const inNs = await add({ content: 'Inside the namespace', external_user_id: 'scope-u', namespace_id: ns });
      const outside = await add({ content: 'Outside any namespace', external_user_id: 'scope-u' });
      const flagged = await add({
        content: 'Flagged, shared',
        external_user_id: 'scope-v',
        policy: { risk: 'flagged', acl: { read: ['external_user:scope-u'] } },
      });
      const shared = await add({
        content: 'Shared with scope-u',
        external_user_id: 'scope-v',
        policy: { acl: { read: ['external_user:scope-u'] } },
      });
      const { key: nsKey } = await makeKey(t.db, t.orgId, { namespaceId: ns });
      const nsCopy = new Map<string, string>();
      await converge('', nsCopy, null, () => truth('namespace_id = $2', [ns]), { 'x-api-key': nsKey });
      assert.ok(nsCopy.has(inNs) && !nsCopy.has(outside));
      const other = await makeNamespace(t.db, t.orgId);
      assertEnvelope(await call('GET', `/v1/sync/delta?namespace_id=${other}`, undefined, { 'x-api-key': nsKey }), 403);

      const me = await makeSession(t.db, t.orgId, 'scope-u');
      const asMe = { 'x-session-token': me.token };
      const mine = new Map<string, string>();
      await converge(
        '',
        mine,
        null,
        async () =>
          truth(`(user_id = $2 OR (acl_read && $3::text[] AND risk <> 'flagged'))`, [
            me.userId,
            readerOf(me.userId, 'scope-u'),
          ]),
        asMe,
      );
      assert.ok(mine.has(inNs) && mine.has(outside) && mine.has(shared) && !mine.has(flagged));
      assertEnvelope(await call('GET', '/v1/sync/delta?external_user_id=scope-v', undefined, asMe), 403);

      const stranger = await makeOrg(t.db);
      const theirs = (await call('GET', '/v1/sync/delta?limit=1000', undefined, { 'x-api-key': stranger.key })).json();
      assert.equal(theirs.upserts.length, 0);
      const named = await call('GET', '/v1/sync/delta?external_user_id=scope-u', undefined, {
        'x-api-key': stranger.key,
      });
      assert.equal(named.json().upserts.length, 0);
    });

    const kit = authKitFor(() => t);
    kit(
      'delta',
      'GET',
      () => '/v1/sync/delta',
      'read',
      undefined,
      async (res) => {
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().upserts.length, 0, 'another tenant’s feed holds none of ours');
      },
    );
  });
}
