import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testConfig, testStores, type TestApp } from './harness.ts';
import { addMemory, post } from './memory-helpers.ts';
import { sleep } from './wait.ts';
import { buildWorker } from '../src/app.ts';
import { startMaintenance } from '../src/retention.ts';
import { autovacuumPass, needsOwnAutovacuum } from '../src/platform/db/vacuum.ts';
import { createLogger } from '../src/platform/log.ts';

const log = createLogger('silent');

for (const store of testStores) {
  describe(`retention [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());

    it(
      'prunes old completed jobs, memory and session events and finished deliveries; ' +
        'keeps dead jobs, batch events and recent rows',
      async () => {
        const config = testConfig({ WORKER_POLL_MS: '50', WEBHOOK_ALLOW_PRIVATE: 'true' });
        const worker = buildWorker({ config, db: t.db, log });
        await worker.start();
        const old = await addMemory(t, { content: 'An old memory.', external_user_id: 'ret' });
        const batch = await post(t, '/v1/memory/batch', {
          memories: [{ content: 'Old batch item.' }],
          external_user_id: 'ret',
        });
        const recent = await addMemory(t, { content: 'A recent memory.', external_user_id: 'ret' });
        // A session's event (it only routes WebSocket pushes) goes like the memory events.
        const message = await post(t, '/v1/messages', {
          session_id: 'ret-chat',
          role: 'user',
          content: 'An old message.',
          external_user_id: 'ret',
          process_messages: false,
        });
        assert.equal(message.statusCode, 200, message.body);
        for (let i = 0; i < 200; i++) {
          const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM jobs WHERE status <> 'completed'`);
          if (n === 0) break;
          await sleep(25);
        }
        await worker.stop();
        await t.db.query(
          `INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts)
           VALUES ('dead-1', 'memory.process', '{}', 'dead', 5, 5)`,
        );
        // Age everything of the old memory and the batch by 60 days, and the dead job too.
        await t.db.query(
          `UPDATE jobs SET updated_at = now() - interval '60 days' WHERE payload->>'memory_id' <> $1 OR id = 'dead-1'`,
          [recent],
        );
        await t.db.query(
          `UPDATE events SET created_at = now() - interval '60 days' WHERE memory_id IS DISTINCT FROM $1`,
          [recent],
        );
        for (const [id, status] of [
          ['d-old', 'delivered'],
          ['d-failed', 'failed'],
          ['d-pending', 'pending'],
        ]) {
          await t.db.query(
            `INSERT INTO webhook_deliveries (id, organization_id, memory_id, url, status, updated_at)
          VALUES ($1, $2, $3, 'http://127.0.0.1/x', $4, now() - interval '60 days')`,
            [id, t.orgId, old, status],
          );
        }
        const sessionEvents = `SELECT count(*)::int AS n FROM events WHERE kind LIKE 'session.%'`;
        assert.equal((await t.db.query<{ n: number }>(sessionEvents))[0].n, 1, 'the message was an event');
        const stop = startMaintenance(t.db, testConfig(), log, 60_000);
        await sleep(300);
        stop();
        const jobs = await t.db.query<{ id: string; status: string }>(
          `SELECT id, status, payload->>'memory_id' AS memory FROM jobs ORDER BY id`,
        );
        assert.deepEqual(
          jobs.map((j: any) => j.memory ?? j.id).sort(),
          ['dead-1', recent].sort(),
          'only the recent and the dead job remain',
        );
        const events = await t.db.query<{ kind: string; memory_id: string | null }>(
          `SELECT kind, memory_id FROM events ORDER BY kind`,
        );
        assert.ok(
          events.every((e) => e.memory_id === recent || e.kind.startsWith('batch.')),
          JSON.stringify(events),
        );
        assert.ok(
          events.some((e) => e.kind === 'batch.stored'),
          'batch events stay',
        );
        assert.equal((await t.db.query<{ n: number }>(sessionEvents))[0].n, 0, 'session events are pruned');
        const status = await t.app.inject({
          url: `/v1/memory/batch/status/${batch.json().batch_id}`,
          headers: { 'x-api-key': t.key },
        });
        assert.equal(status.json().processing_status, 'completed', 'batch status still complete after pruning');
        const deliveries = await t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries');
        assert.deepEqual(
          deliveries.map((d) => d.id),
          ['d-pending'],
          'a pending delivery is never pruned',
        );
      },
    );

    it(
      "vacuums and analyses tables past autovacuum's thresholds " +
        'where the store has none (PGlite; a server with it off)',
      async () => {
        const lastAnalyze = async () =>
          (
            await t.db.query<{ at: Date | null }>(
              `SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = 'memory_chunks'`,
            )
          )[0]?.at ?? null;
        const own = await needsOwnAutovacuum(t.db);
        const [{ setting }] = await t.db.query<{ setting: string }>(`SELECT current_setting('autovacuum') AS setting`);
        assert.equal(own, store.name === 'pglite' || setting === 'off');
        // The maintenance above started no autovacuum check yet: its first comes after the period.
        assert.equal(await lastAnalyze(), null);
        // 60 memories: past 50 + 10 % of a never-analysed table's rows, not past 1000 inserts.
        const items = Array.from({ length: 60 }, (_, i) => ({ content: `Memory ${i} for the statistics.` }));
        assert.equal(
          (
            await post(t, '/v1/memory/batch?skip_background_processing=true', {
              memories: items,
              external_user_id: 'vac',
            })
          ).json().total_successful,
          60,
        );
        if (!own) {
          // A server with autovacuum: the maintenance leaves the tables to it (no manual ANALYZE).
          const stop = startMaintenance(t.db, testConfig(), log, 3_600_000, 20);
          await sleep(500);
          stop();
          assert.equal(await lastAnalyze(), null);
          return;
        }
        // A server's backends report their table counters within about a second (PGlite: when asked).
        const passUntil = async (done: (d: Awaited<ReturnType<typeof autovacuumPass>>) => boolean) => {
          for (let i = 0; ; i++) {
            const d = await autovacuumPass(t.db);
            if (done(d) || i === 75) return d;
            await sleep(200);
          }
        };
        const done = await passUntil((d) => d.analysed.includes('public.memories'));
        assert.ok(
          done.analysed.includes('public.memory_chunks') && done.analysed.includes('public.memories'),
          JSON.stringify(done),
        );
        assert.ok(!done.vacuumed.includes('public.memory_chunks'));
        const analysed = await lastAnalyze();
        assert.ok(analysed instanceof Date);
        assert.deepEqual(
          (await autovacuumPass(t.db)).analysed.filter((x) => x.includes('memor')),
          [],
          'nothing changed since: nothing to do',
        );
        // 1,100 inserted rows pass the insert threshold: a vacuum (which analyses too).
        await t.db.query(
          `INSERT INTO jobs (id, kind, payload, status, max_attempts)
           SELECT 'vac-' || g, 't.none', '{}', 'completed', 1 FROM generate_series(1, 1100) g`,
        );
        assert.ok((await passUntil((d) => d.vacuumed.includes('public.jobs'))).vacuumed.includes('public.jobs'));
        const vacuumed = await t.db.query<{ at: Date | null }>(
          `SELECT last_vacuum AS at FROM pg_stat_user_tables WHERE relname = 'jobs'`,
        );
        assert.ok(vacuumed[0].at instanceof Date);
        // A table's own storage parameters win, as for autovacuum: memory_chunks is vacuumed after
        // 2 % growth (migration 0012); here jobs after 5 inserts.
        const [chunks] = await t.db.query<{ options: string[] }>(
          `SELECT reloptions AS options FROM pg_class WHERE relname = 'memory_chunks'`,
        );
        assert.ok(
          chunks.options.includes('autovacuum_vacuum_insert_scale_factor=0.02'),
          JSON.stringify(chunks.options),
        );
        await t.db.exec(
          'ALTER TABLE jobs SET (autovacuum_vacuum_insert_threshold = 5, autovacuum_vacuum_insert_scale_factor = 0)',
        );
        await t.db.query(
          `INSERT INTO jobs (id, kind, payload, status, max_attempts)
           SELECT 'few-' || g, 't.none', '{}', 'completed', 1 FROM generate_series(1, 10) g`,
        );
        assert.ok(
          (await passUntil((d) => d.vacuumed.includes('public.jobs'))).vacuumed.includes('public.jobs'),
          'vacuumed past its own threshold',
        );
        await t.db.exec(
          'ALTER TABLE jobs RESET (autovacuum_vacuum_insert_threshold, autovacuum_vacuum_insert_scale_factor)',
        );
        // The maintenance timer runs the same check on its own.
        await post(t, '/v1/memory/batch?skip_background_processing=true', {
          memories: [...items, ...items].map((m, i) => ({ content: `${m.content} again ${i}` })),
          external_user_id: 'vac',
        });
        const stop = startMaintenance(t.db, testConfig(), log, 3_600_000, 50);
        for (let i = 0; i < 500 && (await lastAnalyze())?.getTime() === analysed.getTime(); i++) await sleep(20);
        stop();
        assert.ok((await lastAnalyze())! > analysed, 'memory_chunks analysed again by the timer');
      },
    );
  });
}
