import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scratchDatabase, testStores, type TestStore } from '../../../test/harness.ts';
import { migrate, toVector, type Db } from './index.ts';
import { openPgliteThread } from './pglite-thread.ts';
import { openPostgres } from './postgres.ts';

/** What servers run on PGlite (PGLITE_THREAD, the default): the store in a thread of its own. */
const threaded = {
  name: 'pglite thread',
  open: async () => {
    const db = await openPgliteThread();
    await migrate(db);
    return db;
  },
} as unknown as TestStore;

for (const store of [...testStores, threaded]) {
  describe(`Db [${store.name}]`, () => {
    let db: Db;
    before(async () => {
      db = await store.open();
    });
    after(() => db.close());

    it('migrations are recorded and re-running them applies nothing', async () => {
      const names = (await db.query('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);
      assert.ok(names.includes('0001_init.sql'));
      assert.deepEqual(await migrate(db), []);
    });

    it('returns the same JS types on both stores', async () => {
      const [row] = await db.query(
        `SELECT 42::int8 AS big, 7::int AS small, now() AS ts, ARRAY['a','b']::text[] AS arr,
                '{"k":[1,2]}'::jsonb AS doc, true AS flag, NULL::text AS nothing`,
      );
      assert.equal(row.big, 42);
      assert.equal(row.small, 7);
      assert.ok(row.ts instanceof Date);
      assert.deepEqual(row.arr, ['a', 'b']);
      assert.deepEqual(row.doc, { k: [1, 2] });
      assert.equal(row.flag, true);
      assert.equal(row.nothing, null);
    });

    it('has pgvector with cosine distance', async () => {
      const [row] = await db.query<{ d: number }>('SELECT $1::vector <=> $2::vector AS d', [
        toVector([1, 0]),
        toVector([0, 1]),
      ]);
      assert.ok(Math.abs(row.d - 1) < 1e-6);
    });

    it('an HNSW scan with a selective filter still returns LIMIT rows (iterative scans on)', async () => {
      const rows = await db.transaction(async (tx) => {
        await tx.exec(`CREATE TEMP TABLE hnsw_probe (id int, owner text, v vector(4)) ON COMMIT DROP;
          INSERT INTO hnsw_probe SELECT i, CASE WHEN i % 50 = 0 THEN 'small' ELSE 'big' END,
            ARRAY[sin(i), cos(i), sin(i * 0.7), cos(i * 1.3)]::vector FROM generate_series(1, 500) i;
          CREATE INDEX ON hnsw_probe USING hnsw (v vector_cosine_ops);
          SET LOCAL enable_seqscan = off; SET LOCAL hnsw.ef_search = 10;`);
        const plan = await tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT id FROM hnsw_probe WHERE owner = 'small' ORDER BY v <=> '[1,0,0,0]' LIMIT 10`,
        );
        assert.match(plan.map((p) => p['QUERY PLAN']).join('\n'), /hnsw_probe_v_idx/, 'the HNSW index is used');
        return tx.query(`SELECT id FROM hnsw_probe WHERE owner = 'small' ORDER BY v <=> '[1,0,0,0]' LIMIT 10`);
      });
      assert.equal(rows.length, 10, 'all 10 of the small owner, not the few among the first ef_search');
    });

    it('commits on success and rolls back on error', async () => {
      await db.exec('CREATE TABLE t_tx (v int)');
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO t_tx VALUES (1)');
      });
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO t_tx VALUES (2)');
          throw new Error('abort');
        }),
        /abort/,
      );
      const rows = await db.query('SELECT v FROM t_tx ORDER BY v');
      assert.deepEqual(
        rows.map((r) => r.v),
        [1],
      );
    });

    it('passes arrays and JSON parameters', async () => {
      const [row] = await db.query('SELECT $1::text[] AS a, $2::jsonb AS j', [['x', 'y'], JSON.stringify({ z: 1 })]);
      assert.deepEqual(row.a, ['x', 'y']);
      assert.deepEqual(row.j, { z: 1 });
    });

    it('a prepared statement answers as an unprepared one, again and again, inside transactions too', async () => {
      const sql = 'SELECT $1::int + n AS v FROM generate_series(1, $2::int) AS n ORDER BY n';
      const plain = await db.query(sql, [10, 3]);
      assert.deepEqual(
        plain.map((r) => r.v),
        [11, 12, 13],
      );
      // More calls than connections and than the five custom plans before a generic one.
      const runs = await Promise.all(Array.from({ length: 24 }, (_, i) => db.query(sql, [i, 3], { prepared: true })));
      runs.forEach((rows, i) =>
        assert.deepEqual(
          rows.map((r) => r.v),
          [i + 1, i + 2, i + 3],
        ),
      );
      const inTx = await db.transaction((tx) => tx.query(sql, [100, 2], { prepared: true }));
      assert.deepEqual(
        inTx.map((r) => r.v),
        [101, 102],
      );
      // Another text is another statement, not the first one's plan under its name.
      const [other] = await db.query('SELECT $1::text AS t', ['x'], { prepared: true });
      assert.equal(other.t, 'x');
    });
  });
}

describe('Db [postgres] prepared statements', () => {
  /** Statements prepared on the only connection of a one-connection pool, after a prepared query. */
  async function preparedAfter(prepared: boolean | undefined): Promise<number> {
    const scratch = await scratchDatabase();
    const db = await openPostgres(scratch.url, 1, { prepared });
    try {
      await db.query('SELECT $1::int AS v', [1], { prepared: true });
      await db.query('SELECT $1::int AS v', [2], { prepared: true });
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
      return row.n;
    } finally {
      await db.close();
      await scratch.drop();
    }
  }

  it('one named statement per text and connection by default; none with DATABASE_PREPARED_STATEMENTS off', async () => {
    assert.equal(await preparedAfter(undefined), 1);
    assert.equal(await preparedAfter(false), 0);
  });
});

describe('Db [pglite thread] specifics', () => {
  it('reports PostgreSQL errors with their fields, and the store stays usable', async () => {
    const db = await openPgliteThread();
    try {
      await db.exec('CREATE TABLE t_u (v int PRIMARY KEY)');
      await db.query('INSERT INTO t_u VALUES (1)');
      const err = await db.query('INSERT INTO t_u VALUES (1)').then(
        () => null,
        (e: Error & { code?: string; constraint?: string }) => e,
      );
      assert.ok(err instanceof Error);
      assert.match(err.message, /duplicate key/);
      assert.equal(err.code, '23505');
      assert.equal(err.constraint, 't_u_pkey');
      // A failed statement inside a transaction rolls it back whole.
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO t_u VALUES (2)');
          await tx.query('INSERT INTO t_u VALUES (1)');
        }),
        /duplicate key/,
      );
      assert.deepEqual(
        (await db.query('SELECT v FROM t_u ORDER BY v')).map((r) => r.v),
        [1],
      );
    } finally {
      await db.close();
    }
  });

  it('runs statements outside a transaction after it, not inside it', async () => {
    const db = await openPgliteThread();
    try {
      await db.exec('CREATE TABLE t_o (v int)');
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const tx = db.transaction(async (q) => {
        await q.query('INSERT INTO t_o VALUES (1)');
        await gate;
        throw new Error('roll back');
      });
      await new Promise((r) => setTimeout(r, 20));
      const outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM t_o');
      release();
      await assert.rejects(tx, /roll back/);
      assert.equal((await outside)[0].n, 0, 'the outside read waited for the rollback');
    } finally {
      await db.close();
    }
  });

  it('delivers NOTIFY to listeners until they unlisten', async () => {
    const db = await openPgliteThread();
    try {
      const got: string[] = [];
      const unlisten = await db.listen('engram_t', (p) => got.push(p));
      await db.query("SELECT pg_notify('engram_t', 'one')");
      await db.transaction(async (tx) => {
        await tx.query("SELECT pg_notify('engram_t', 'two')");
      });
      for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(got, ['one', 'two']);
      await unlisten();
      await db.query("SELECT pg_notify('engram_t', 'three')");
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(got, ['one', 'two']);
    } finally {
      await db.close();
    }
  });

  it('holds its data directory lock while open, keeps data across reopen, and fails calls after close', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-thread-'));
    try {
      const db = await openPgliteThread(dir);
      await db.exec('CREATE TABLE t_k (v text)');
      await db.query("INSERT INTO t_k VALUES ('kept')");
      // The lock a second process would be refused by (test/startup.test.ts runs that one).
      assert.equal(fs.readFileSync(path.join(dir, 'engram.lock'), 'utf8'), String(process.pid));
      await db.close();
      assert.equal(fs.existsSync(path.join(dir, 'engram.lock')), false);
      await assert.rejects(db.query('SELECT 1'), /embedded store thread/);
      const again = await openPgliteThread(dir);
      assert.deepEqual(await again.query('SELECT v FROM t_k'), [{ v: 'kept' }]);
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
