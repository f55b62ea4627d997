/**
 * kill -9 of the worker in the middle of a long document (PostgreSQL, issue #19): a new worker
 * resumes the upload's job after its lease, skips the chunks already recorded, and the document
 * ends with every chunk stored exactly once (no duplicate memory, none missing).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { runMain, startServer } from './process.ts';
import { scenarioStore } from './harness.ts';
import { until } from './wait.ts';

const SECTIONS = 300;

/** A long Markdown document: one section a chunk, each with words of its own. */
const longDocument = () =>
  Array.from(
    { length: SECTIONS },
    (_, i) =>
      `## Station ${i}\n\nThe survey team logged station ${i} at kilometre ${i * 3}: ` +
      `soil sample ${i}-A, water table at ${(i % 17) + 2} metres, and a note about marker ${i * 7}.`,
  ).join('\n\n');

describe('kill -9 of the worker during a long document (PostgreSQL)', () => {
  it('the upload resumes on a new worker; every chunk is stored exactly once', { timeout: 300_000 }, async (t) => {
    const { key, env, databaseUrl, cleanup } = await scenarioStore('engram-kill-doc-', {
      WORKER_LEASE_MS: '3000',
      // One memory's processing never outruns the chunks: the graph step is not what is tested.
      EXTRACTOR_THREAD: 'false',
    });
    const db = new pg.Client({ connectionString: databaseUrl });
    const n = async (sql: string, params: unknown[] = []) =>
      Number((await db.query<{ n: number }>(sql, params)).rows[0].n);
    const api = await startServer({ ...env, ROLES: 'api', LOG_LEVEL: 'warn' });
    const first = runMain({ ...env, ROLES: 'worker' });
    let second: ReturnType<typeof runMain> | null = null;
    const logs = () =>
      [first, second].flatMap((w, i) => (w ? [`--- worker ${i}:\n${w.output().slice(-3000)}`] : [])).join('\n');
    try {
      await db.connect();
      await until(async () => /Engram started/.test(first.output()), 90_000, 'worker did not start', logs);
      const form = new FormData();
      form.append('external_user_id', 'surveyor');
      form.append('file', new Blob([longDocument()], { type: 'text/markdown' }), 'survey.md');
      const res = await fetch(`${api.url}/v1/document`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
      const text = await res.text();
      assert.equal(res.status, 202, text);
      const id = (JSON.parse(text) as { document_status: { upload_id: string } }).document_status.upload_id;
      const recorded = () => n('SELECT count(*)::int AS n FROM document_chunks WHERE upload_id = $1', [id]);

      // Kill the worker once some groups of chunks are in and most are not.
      await until(async () => (await recorded()) >= 32, 120_000, 'no chunk was stored', logs);
      first.proc.kill('SIGKILL');
      await first.exited;
      const atKill = await recorded();
      t.diagnostic(`killed with ${atKill} of ${SECTIONS} chunks recorded`);
      assert.ok(atKill < SECTIONS, 'killed mid-document');

      second = runMain({ ...env, ROLES: 'worker' });
      const status = async () =>
        (await (await fetch(`${api.url}/v1/document/status/${id}`, { headers: { 'X-API-Key': key } })).json()) as {
          status: string;
          chunks: { total: number; stored: number };
        };
      await until(async () => (await status()).status === 'completed', 180_000, 'the document did not complete', logs);

      const s = await status();
      assert.equal(s.chunks.total, SECTIONS);
      assert.equal(s.chunks.stored, SECTIONS);
      assert.equal(await recorded(), SECTIONS);
      assert.equal(
        await n('SELECT count(*)::int AS n FROM memories WHERE batch_id = $1', [id]),
        SECTIONS,
        'no duplicate',
      );
      assert.equal(
        await n('SELECT count(DISTINCT content)::int AS n FROM memories WHERE batch_id = $1', [id]),
        SECTIONS,
        'every section once',
      );
      assert.equal(
        await n(
          `SELECT count(*)::int AS n FROM document_chunks c JOIN memories m ON m.id = c.memory_id
           WHERE c.upload_id = $1 AND m.metadata->>'chunk_index' = c.chunk_index::text`,
          [id],
        ),
        SECTIONS,
        'each record points at the memory of its own chunk',
      );
    } finally {
      for (const w of [first, second]) if (w && w.proc.exitCode === null) w.proc.kill('SIGTERM');
      await Promise.all([first.exited, second?.exited]);
      await api.stop();
      await db.end().catch(() => {});
      await cleanup();
    }
  });
});
