/**
 * Deletion receipts (issue #22) on both stores: for each delete — one memory, delete-all of a
 * user, a user, a namespace, a document — a subject with data in every table (memories whose
 * graph processing is done, chat messages, a document, events, feedback, a logged search, a
 * pending job and webhook delivery, a login session, an OAuth identity, a personal schema) and a
 * control subject seeded alike. The receipt must equal what the tables held of the subject
 * (counted with SQL before the delete), nothing of the subject may be left afterwards, and the
 * control's footprint must be unchanged.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startApp, testConfig, testStores, type TestApp } from './harness.ts';
import { makeNamespace, makeSession } from './factories.ts';
import { uploadDocument } from './multipart.ts';
import { waitFor } from './wait.ts';
import { buildWorker } from '../src/app.ts';
import { createLogger } from '../src/platform/log.ts';
import type { Worker } from '../src/platform/jobs/index.ts';
import { RECEIPT_KEYS, type DeletionReceipt } from '../src/shared/receipt.ts';
import type { Db } from '../src/platform/db/index.ts';

const log = createLogger('silent');

interface Subject {
  ext: string;
  userId: string;
  namespaceId: string | null;
  memoryIds: string[];
  uploadId: string;
}

/** What the store holds of a set of memories / a user / a namespace / uploads, by receipt key. */
async function footprint(
  db: Db,
  org: string,
  of: {
    memoryIds: string[];
    userId?: string;
    namespaceId?: string;
    uploadIds?: string[];
    whole?: boolean;
    /** Count every node the memories link to, not only those no other memory links to (a control's). */
    allNodes?: boolean;
  },
): Promise<Partial<DeletionReceipt>> {
  const m = of.memoryIds;
  const uploads = of.uploadIds ?? [];
  const one = async (sql: string, params: unknown[]) => (await db.query<{ n: number }>(sql, params))[0].n;
  const sessions = of.userId
    ? (
        await db.query<{ id: string }>(
          `SELECT id FROM chat_sessions WHERE organization_id = $1 AND user_id = $2
             AND ($3::text IS NULL OR namespace_id = $3)`,
          [org, of.userId, of.namespaceId ?? null],
        )
      ).map((r) => r.id)
    : of.namespaceId
      ? (
          await db.query<{ id: string }>(
            'SELECT id FROM chat_sessions WHERE organization_id = $1 AND namespace_id = $2',
            [org, of.namespaceId],
          )
        ).map((r) => r.id)
      : [];
  const batches = (
    await db.query<{ b: string }>(
      'SELECT DISTINCT batch_id AS b FROM memories WHERE id = ANY($1) AND batch_id IS NOT NULL',
      [m],
    )
  ).map((r) => r.b);
  const deliveries = (
    await db.query<{ id: string }>(
      'SELECT id FROM webhook_deliveries WHERE memory_id = ANY($1) OR batch_id = ANY($2)',
      [m, [...batches, ...uploads]],
    )
  ).map((r) => r.id);
  // Nodes only the subject's memories link to (or, for a namespace, every node of it).
  const nodes = (
    of.namespaceId && !of.userId
      ? await db.query<{ id: string }>('SELECT id FROM graph_nodes WHERE organization_id = $1 AND namespace_key = $2', [
          org,
          of.namespaceId,
        ])
      : await db.query<{ id: string }>(
          `SELECT DISTINCT node_id AS id FROM memory_nodes l WHERE l.memory_id = ANY($1) AND ($2 OR NOT EXISTS
             (SELECT 1 FROM memory_nodes o WHERE o.node_id = l.node_id AND NOT (o.memory_id = ANY($1))))`,
          [m, of.allNodes ?? false],
        )
  ).map((r) => r.id);
  const scoped = (table: string) =>
    of.userId
      ? one(
          `SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1 AND user_id = $2
             AND ($3::text IS NULL OR namespace_id = $3)`,
          [org, of.userId, of.namespaceId ?? null],
        )
      : of.namespaceId
        ? one(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1 AND namespace_id = $2`, [
            org,
            of.namespaceId,
          ])
        : Promise.resolve(0);
  const feedbackIds = of.userId || of.namespaceId ? await feedbackOf(db, org, of) : [];
  return {
    memories: await one('SELECT count(*)::int AS n FROM memories WHERE id = ANY($1)', [m]),
    chunks: await one('SELECT count(*)::int AS n FROM memory_chunks WHERE memory_id = ANY($1)', [m]),
    vectors: await one(
      `SELECT coalesce(sum((embedding IS NOT NULL)::int + (embedding2 IS NOT NULL)::int), 0)::int AS n
       FROM memory_chunks WHERE memory_id = ANY($1)`,
      [m],
    ),
    graph_links: await one(
      'SELECT count(*)::int AS n FROM memory_nodes WHERE memory_id = ANY($1) OR node_id = ANY($2)',
      [m, of.allNodes ? [] : nodes],
    ),
    graph_nodes: nodes.length,
    relationships: await one(
      `SELECT count(*)::int AS n FROM graph_edges
       WHERE memory_id = ANY($1) OR source_id = ANY($2) OR target_id = ANY($2)`,
      [m, of.allNodes ? [] : nodes],
    ),
    transforms: await one('SELECT count(*)::int AS n FROM memory_transforms WHERE memory_id = ANY($1)', [m]),
    feedback: feedbackIds.length,
    feedback_signals: await one(
      'SELECT count(*)::int AS n FROM feedback_signals WHERE memory_id = ANY($1) OR feedback_id = ANY($2)',
      [m, feedbackIds],
    ),
    search_log: await scoped('query_log'),
    events: await one(
      'SELECT count(*)::int AS n FROM events WHERE memory_id = ANY($1) OR batch_id = ANY($2) OR session_id = ANY($3)',
      [m, [...batches, ...uploads], sessions],
    ),
    webhook_deliveries: deliveries.length,
    jobs: await one(
      `SELECT count(*)::int AS n FROM jobs WHERE status <> 'running' AND coalesce(payload->>'memory_id',
         payload->>'upload_id', payload->>'session_id', payload->>'delivery_id') = ANY($1)`,
      [[...m, ...uploads, ...sessions, ...deliveries]],
    ),
    sessions: sessions.length,
    messages: await one('SELECT count(*)::int AS n FROM chat_messages WHERE session_id = ANY($1)', [sessions]),
    documents: await one('SELECT count(*)::int AS n FROM document_uploads WHERE id = ANY($1)', [uploads]),
    document_chunks: await one('SELECT count(*)::int AS n FROM document_chunks WHERE upload_id = ANY($1)', [uploads]),
    document_files: await one('SELECT count(*)::int AS n FROM document_files WHERE upload_id = ANY($1)', [uploads]),
    ...(of.whole && of.userId
      ? {
          users: 1,
          auth_sessions: await one('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [of.userId]),
          oauth_grants: await one(
            `SELECT ((SELECT count(*) FROM oauth_identities WHERE user_id = $1)
                   + (SELECT count(*) FROM oauth_refresh_tokens WHERE user_id = $1))::int AS n`,
            [of.userId],
          ),
          graph_schemas: await one(
            `SELECT count(*)::int AS n FROM graph_schemas WHERE user_id = $1 AND scope = 'personal'`,
            [of.userId],
          ),
        }
      : {}),
  };
}

async function feedbackOf(db: Db, org: string, of: { userId?: string; namespaceId?: string }) {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM feedback WHERE organization_id = $1 AND ($2::text IS NULL OR user_id = $2)
       AND ($3::text IS NULL OR namespace_id = $3)`,
    [org, of.userId ?? null, of.namespaceId ?? null],
  );
  return rows.map((r) => r.id);
}

/** Every key of `expected` equals the receipt's; the receipt's other keys are 0. */
function assertReceipt(got: DeletionReceipt, expected: Partial<DeletionReceipt>, what: string) {
  assert.deepEqual(Object.keys(got).sort(), [...RECEIPT_KEYS].sort(), `${what}: the receipt has every key`);
  const want = Object.fromEntries(RECEIPT_KEYS.map((k) => [k, expected[k] ?? 0]));
  for (const k of ['api_keys'] as const) if (expected[k] === undefined) want[k] = got[k];
  assert.deepEqual(got, want, what);
}

const allZero = (f: Partial<DeletionReceipt>) => Object.fromEntries(Object.keys(f).map((k) => [k, 0]));

for (const store of testStores) {
  describe(`deletion receipts [${store.name}]`, () => {
    let t: TestApp;
    let worker: Worker;
    before(async () => {
      t = await startApp(store, { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
      worker = buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log });
    });
    after(async () => {
      await worker.stop();
      await t.close();
    });

    const call = (method: string, url: string, payload?: unknown, key = t.key) =>
      t.app.inject({ method: method as 'POST', url, headers: { 'x-api-key': key }, payload: payload as object });
    const ok = async (method: string, url: string, payload?: unknown, query = '') => {
      const res = await call(method, url + query, payload);
      assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const idle = () =>
      waitFor(
        async () =>
          (
            await t.db.query(
              `SELECT 1 FROM jobs
               WHERE status IN ('queued', 'running', 'failed') AND kind <> 'webhook.deliver' LIMIT 1`,
            )
          ).length === 0,
        { timeoutMs: 60_000, what: 'every job done' },
      );

    /**
     * Users (one per entry, in that namespace or none) with data in every table, names unique to
     * each: first what the worker processes (memories with their graph, a chat message made into a
     * memory, a document), then, with the worker stopped, what stays pending (a changed memory
     * waiting to be processed again, a new one with its webhook) and rows of the other areas.
     */
    async function seed(...namespaces: (string | null)[]): Promise<Subject[]> {
      await worker.start();
      const made = [];
      for (const namespaceId of namespaces) made.push(await seedProcessed(namespaceId));
      await idle();
      for (const m of made) await seedFeedback(m);
      await worker.stop();
      const subjects: Subject[] = [];
      for (const m of made) subjects.push(await seedPending(m));
      return subjects;
    }

    async function seedProcessed(namespaceId: string | null) {
      const tag = randomBytes(3).toString('hex');
      const ext = `subject-${tag}`;
      const ns: Record<string, string> = namespaceId ? { namespace_id: namespaceId } : {};
      await ok('POST', '/v1/memory', {
        external_user_id: ext,
        ...ns,
        content: `Zora${tag} Quillfeather works at Brightmoor${tag} Labs on the lantern project.`,
        memory_policy: {
          mode: 'manual',
          nodes: [
            { id: 'p', type: 'Person', properties: { name: `Zora${tag} Quillfeather` } },
            { id: 'c', type: 'Company', properties: { name: `Brightmoor${tag} Labs` } },
          ],
          relationships: [
            { source: 'p', target: 'c', type: 'WORKS_AT' },
            { source: '$this', target: 'p', type: 'MENTIONS' },
          ],
        },
      });
      const m2 = (
        await ok('POST', '/v1/memory', {
          external_user_id: ext,
          ...ns,
          content: `Zora${tag} drinks jasmine tea every morning before the standup.`,
        })
      ).data[0].memoryId as string;
      await ok('POST', '/v1/messages', {
        sessionId: `chat-${tag}`,
        role: 'user',
        content: `Remind me that Zora${tag} prefers window seats.`,
        external_user_id: ext,
        ...ns,
      });
      const uploadId = await uploadDocument(
        t,
        { name: `notes-${tag}.txt`, bytes: `Zora${tag} notes.\n\nThe lantern ships in May.`, type: 'text/plain' },
        { external_user_id: ext, ...ns },
      );
      return { tag, ext, ns, namespaceId, m2, uploadId };
    }

    type Made = Awaited<ReturnType<typeof seedProcessed>>;

    /** A logged search of the user and feedback on it citing one of their memories. */
    async function seedFeedback(m: Made) {
      const search = await ok('POST', '/v1/memory/search', {
        query: `Zora${m.tag} tea`,
        external_user_id: m.ext,
        ...m.ns,
      });
      const cited = search.data.memories.map((x: { id: string }) => x.id).slice(0, 1);
      assert.equal(cited.length, 1);
      await ok('POST', '/v1/feedback', {
        search_id: search.search_id,
        feedbackData: { feedbackType: 'thumbs_up', feedbackSource: 'inline', citedMemoryIds: cited },
      });
    }

    async function seedPending(m: Made): Promise<Subject> {
      const { tag, ext, ns, namespaceId } = m;
      await ok('PUT', `/v1/memory/${m.m2}`, { content: `Zora${tag} drinks green tea every morning.` });
      await ok(
        'POST',
        '/v1/memory',
        {
          external_user_id: ext,
          ...ns,
          content: `Zora${tag} waits for the webhook.`,
        },
        '?webhook_url=http%3A%2F%2F127.0.0.1%3A9%2Fhook',
      );
      const user = await t.db.query<{ id: string }>(
        'SELECT id FROM users WHERE organization_id = $1 AND external_id = $2',
        [t.orgId, ext],
      );
      const userId = user[0].id;
      await makeSession(t.db, t.orgId, ext);
      await t.db.query(
        `INSERT INTO oauth_identities (id, organization_id, issuer, subject, user_id) VALUES ($1, $2, 'https://idp', $1, $3)`,
        [`oid-${tag}`, t.orgId, userId],
      );
      await t.db.query(
        `INSERT INTO graph_schemas (id, organization_id, namespace_id, user_id, name, scope)
         VALUES ($1, $2, $3, $4, 'mine', 'personal')`,
        [`gs-${tag}`, t.orgId, namespaceId, userId],
      );
      const memoryIds = (
        await t.db.query<{ id: string }>('SELECT id FROM memories WHERE user_id = $1 ORDER BY id', [userId])
      ).map((r) => r.id);
      assert.ok(memoryIds.length >= 5, `memories of the subject: ${memoryIds.length}`);
      return { ext, userId, namespaceId, memoryIds, uploadId: m.uploadId };
    }

    /** The seeded tables the footprint reads hold something of the subject (so "0 after" means something). */
    function assertSeeded(f: Partial<DeletionReceipt>, keys: (keyof DeletionReceipt)[]) {
      for (const k of keys) assert.ok((f[k] ?? 0) > 0, `seeded ${k}: ${JSON.stringify(f)}`);
    }
    const userScope = (s: Subject, whole = true) => ({
      memoryIds: s.memoryIds,
      userId: s.userId,
      uploadIds: [s.uploadId],
      whole,
    });
    /** A control subject's footprint: every node its memories link to (shared ones included). */
    const controlPrint = (s: Subject) => footprint(t.db, t.orgId, { ...userScope(s), allNodes: true });
    const noOrphanNodes = async () =>
      assert.equal(
        (
          await t.db.query(
            'SELECT 1 FROM graph_nodes n WHERE NOT EXISTS (SELECT 1 FROM memory_nodes m WHERE m.node_id = n.id)',
          )
        ).length,
        0,
        'no graph node without a memory',
      );

    it('DELETE /v1/memory/{id}: the memory, its chunks, vectors, graph, events, jobs, delivery', async () => {
      const [s, control] = await seed(null, null);
      const controlBefore = await controlPrint(control);
      // The memory with the manual graph, processed, then changed (its job waits), and the webhook one.
      // By its content, not by its number of edges: another memory of the subject may tie with it,
      // and only this one names a node (the company) that no other memory links to.
      const [graphMemory] = (
        await t.db.query<{ id: string }>(
          `SELECT id FROM memories WHERE id = ANY($1) AND content LIKE '%Quillfeather works at%'`,
          [s.memoryIds],
        )
      ).map((r) => r.id);
      const hooked = (
        await t.db.query<{ id: string }>('SELECT memory_id AS id FROM webhook_deliveries WHERE memory_id = ANY($1)', [
          s.memoryIds,
        ])
      )[0].id;
      const seeded: Record<string, (keyof DeletionReceipt)[]> = {
        [graphMemory]: ['memories', 'chunks', 'vectors', 'graph_links', 'graph_nodes', 'relationships', 'events'],
        [hooked]: ['memories', 'chunks', 'webhook_deliveries', 'jobs'],
      };
      for (const id of [graphMemory, hooked]) {
        const expected = await footprint(t.db, t.orgId, { memoryIds: [id] });
        assertSeeded(expected, seeded[id]);
        const res = await call('DELETE', `/v1/memory/${id}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.equal(body.memoryId, id);
        assert.equal(body.deletion_status.neo4j, true);
        assertReceipt(body.deleted, expected, `DELETE /v1/memory/${id}`);
        assert.deepEqual(await footprint(t.db, t.orgId, { memoryIds: [id] }), allZero(expected));
      }
      await noOrphanNodes();
      assert.deepEqual(await controlPrint(control), controlBefore, 'the control subject is untouched');
    });

    it('DELETE /v1/memory/all: every memory of the user, their sessions, documents, what hangs off them', async () => {
      const [s, control] = await seed(null, null);
      const controlBefore = await controlPrint(control);
      const all = await footprint(t.db, t.orgId, userScope(s, false));
      assertSeeded(all, ['memories', 'chunks', 'vectors', 'graph_links', 'graph_nodes', 'relationships']);
      assertSeeded(all, ['events', 'jobs', 'webhook_deliveries', 'sessions', 'messages', 'documents']);
      // The user stays, and with them their feedback and searches; signals on the deleted memories go.
      const [{ n: signals }] = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM feedback_signals WHERE memory_id = ANY($1)',
        [s.memoryIds],
      );
      const expected = { ...all, feedback: 0, search_log: 0, feedback_signals: signals };
      const res = await call('DELETE', `/v1/memory/all?external_user_id=${s.ext}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.total_successful, expected.memories);
      assert.equal(body.details.sessions_deleted, expected.sessions);
      assertReceipt(body.deleted, expected, 'DELETE /v1/memory/all');
      assert.equal(
        (await t.db.query('SELECT 1 FROM feedback_signals WHERE memory_id = ANY($1)', [s.memoryIds])).length,
        0,
      );
      const after = await footprint(t.db, t.orgId, userScope(s, false));
      assert.deepEqual({ ...after, feedback: 0, search_log: 0, feedback_signals: 0 }, allZero(after));
      await noOrphanNodes();
      assert.deepEqual(await controlPrint(control), controlBefore, 'the control subject is untouched');
    });

    it('DELETE /v1/user/{id}: the user row and everything of theirs, in every table', async () => {
      const [s, control] = await seed(null, null);
      const controlBefore = await controlPrint(control);
      const expected = await footprint(t.db, t.orgId, userScope(s));
      assertSeeded(expected, ['memories', 'graph_nodes', 'sessions', 'documents', 'feedback', 'feedback_signals']);
      assertSeeded(expected, ['search_log', 'auth_sessions', 'oauth_grants', 'graph_schemas', 'jobs', 'events']);
      const res = await call('DELETE', `/v1/user/${s.userId}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.user_deleted, true);
      assert.equal(body.memories_deleted, expected.memories);
      assertReceipt(body.deleted, expected, 'DELETE /v1/user');
      assert.deepEqual(await footprint(t.db, t.orgId, userScope(s)), { ...allZero(expected), users: 1 });
      await assertNothingNames(t.db, { userId: s.userId, memoryIds: s.memoryIds, uploadIds: [s.uploadId] });
      await noOrphanNodes();
      assert.deepEqual(await controlPrint(control), controlBefore, 'the control subject is untouched');
    });

    it('DELETE /v1/namespace/{id}: its memories, sessions, documents, graph, schemas, searches and keys', async () => {
      const ns = await makeNamespace(t.db, t.orgId);
      const [a, b, control] = await seed(ns, ns, null);
      const controlBefore = await controlPrint(control);
      const memoryIds = [...a.memoryIds, ...b.memoryIds];
      const expected = {
        ...(await footprint(t.db, t.orgId, { memoryIds, namespaceId: ns, uploadIds: [a.uploadId, b.uploadId] })),
        graph_schemas: 2,
      };
      assertSeeded(expected, ['memories', 'graph_nodes', 'relationships', 'sessions', 'documents', 'search_log']);
      const res = await call('DELETE', `/v1/namespace/${ns}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.cascade.memories_deleted, expected.memories);
      assert.equal(body.cascade.neo4j_nodes_deleted, expected.graph_nodes);
      assertReceipt(body.deleted, { ...expected, api_keys: body.cascade.api_keys_deleted }, 'DELETE /v1/namespace');
      const after = await footprint(t.db, t.orgId, { memoryIds, namespaceId: ns, uploadIds: [a.uploadId, b.uploadId] });
      assert.deepEqual(after, allZero(after));
      for (const s of [a, b]) await assertNothingNames(t.db, { memoryIds: s.memoryIds, uploadIds: [s.uploadId] });
      for (const table of [
        'memories',
        'memory_chunks',
        'chat_sessions',
        'document_uploads',
        'graph_schemas',
        'query_log',
      ]) {
        const left = await t.db.query(`SELECT 1 FROM ${table} WHERE namespace_id = $1`, [ns]);
        assert.equal(left.length, 0, `${table} keeps rows of the namespace`);
      }
      assert.equal((await t.db.query('SELECT 1 FROM graph_nodes WHERE namespace_key = $1', [ns])).length, 0);
      await noOrphanNodes();
      assert.deepEqual(await controlPrint(control), controlBefore, 'the control subject is untouched');
    });

    it('DELETE /v1/namespace/{id}?delete_memories=false: memories kept (detached) with their batches', async () => {
      const ns = await makeNamespace(t.db, t.orgId);
      const [s] = await seed(ns);
      const kept = await footprint(t.db, t.orgId, { memoryIds: s.memoryIds, uploadIds: [s.uploadId] });
      const batchEvents = async () =>
        (await t.db.query('SELECT 1 FROM events WHERE batch_id = $1', [s.uploadId])).length;
      const eventsBefore = await batchEvents();
      assert.ok(eventsBefore > 0);
      const res = await call('DELETE', `/v1/namespace/${ns}?delete_memories=false`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.cascade.memories_detached, s.memoryIds.length);
      assert.equal(body.deleted.memories, 0);
      assert.equal(body.deleted.chunks, 0);
      assert.equal(body.deleted.documents, 1, 'the upload record goes with the namespace row');
      assert.equal(body.deleted.graph_schemas, 1);
      const after = await footprint(t.db, t.orgId, { memoryIds: s.memoryIds });
      for (const k of ['memories', 'chunks', 'vectors'] as const) assert.equal(after[k], kept[k], k);
      assert.equal(await batchEvents(), eventsBefore, "the kept memories' batch keeps its events");
      const moved = await t.db.query('SELECT 1 FROM memories WHERE id = ANY($1) AND namespace_id IS NULL', [
        s.memoryIds,
      ]);
      assert.equal(moved.length, s.memoryIds.length);
    });

    it('DELETE /v1/document/{id}?delete_memories=true: a finished upload with its memories and records', async () => {
      const [s, control] = await seed(null, null);
      const controlBefore = await controlPrint(control);
      const memoryIds = (
        await t.db.query<{ id: string }>('SELECT id FROM memories WHERE batch_id = $1', [s.uploadId])
      ).map((r) => r.id);
      assert.ok(memoryIds.length > 0);
      const expected = await footprint(t.db, t.orgId, { memoryIds, uploadIds: [s.uploadId] });
      assertSeeded(expected, ['memories', 'chunks', 'documents', 'document_chunks', 'events']);
      const res = await call('DELETE', `/v1/document/${s.uploadId}?delete_memories=true`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.memories_deleted, expected.memories);
      assertReceipt(body.deleted, expected, 'DELETE /v1/document');
      const after = await footprint(t.db, t.orgId, { memoryIds, uploadIds: [s.uploadId] });
      assert.deepEqual(after, allZero(after));
      await assertNothingNames(t.db, { memoryIds, uploadIds: [s.uploadId] });
      assert.equal((await call('GET', `/v1/document/status/${s.uploadId}`)).statusCode, 404);
      // Without delete_memories a finished upload is still a 409 (nothing to cancel).
      assert.equal((await call('DELETE', `/v1/document/${control.uploadId}`)).statusCode, 409);
      await noOrphanNodes();
      assert.deepEqual(await controlPrint(control), controlBefore, 'the control subject is untouched');
    });
  });
}

/**
 * Every table with a memory, user or upload column holds nothing of these (read directly; the
 * tables kept by design — sync tombstones, telemetry, AI usage — are not among them).
 */
async function assertNothingNames(db: Db, of: { memoryIds: string[]; userId?: string; uploadIds: string[] }) {
  const byMemory = [
    'memory_chunks',
    'memory_chunk_terms',
    'memory_nodes',
    'graph_edges',
    'memory_transforms',
    'events',
    'webhook_deliveries',
    'feedback_signals',
    'chat_messages',
    'document_chunks',
  ];
  for (const table of byMemory) {
    const left: unknown[] = await db.query(`SELECT 1 FROM ${table} WHERE memory_id = ANY($1)`, [of.memoryIds]);
    assert.equal(left.length, 0, `${table} names a deleted memory`);
  }
  const jobs = await db.query(
    `SELECT 1 FROM jobs WHERE payload->>'memory_id' = ANY($1) OR payload->>'upload_id' = ANY($2)`,
    [of.memoryIds, of.uploadIds],
  );
  assert.equal(jobs.length, 0, 'jobs name what was deleted');
  for (const table of ['document_uploads', 'document_files', 'document_chunks']) {
    const col = table === 'document_uploads' ? 'id' : 'upload_id';
    assert.equal((await db.query(`SELECT 1 FROM ${table} WHERE ${col} = ANY($1)`, [of.uploadIds])).length, 0, table);
  }
  assert.equal((await db.query('SELECT 1 FROM events WHERE batch_id = ANY($1)', [of.uploadIds])).length, 0);
  const orphanSessionEvents = await db.query(
    `SELECT 1 FROM events e WHERE e.session_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM chat_sessions s WHERE s.id = e.session_id)`,
  );
  assert.equal(orphanSessionEvents.length, 0, 'events name a deleted chat session');
  if (!of.userId) return;
  const byUser = [
    'memories',
    'memory_chunks',
    'memory_chunk_terms',
    'query_log',
    'sessions',
    'chat_sessions',
    'document_uploads',
    'feedback',
    'feedback_signals',
    'oauth_identities',
    'oauth_refresh_tokens',
    'graph_schemas',
    'users',
  ];
  for (const table of byUser) {
    const col = table === 'users' ? 'id' : 'user_id';
    const left: unknown[] = await db.query(`SELECT 1 FROM ${table} WHERE ${col} = $1`, [of.userId]);
    assert.equal(left.length, 0, `${table} keeps rows of the deleted user`);
  }
  const stats = await db.query('SELECT 1 FROM memory_term_stats WHERE user_id = $1 AND chunks <> 0', [of.userId]);
  assert.equal(stats.length, 0, 'BM25 statistics count chunks of the deleted user');
}
