import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testStores } from '../../../test/harness.ts';
import { migrate, toVector, type Db } from './index.ts';

for (const store of testStores) {
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
      const [row] = await db.query('SELECT $1::vector <=> $2::vector AS d', [toVector([1, 0]), toVector([0, 1])]);
      assert.ok(Math.abs(row.d - 1) < 1e-6);
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
      assert.deepEqual(rows.map((r) => r.v), [1]);
    });

    it('passes arrays and JSON parameters', async () => {
      const [row] = await db.query('SELECT $1::text[] AS a, $2::jsonb AS j', [['x', 'y'], JSON.stringify({ z: 1 })]);
      assert.deepEqual(row.a, ['x', 'y']);
      assert.deepEqual(row.j, { z: 1 });
    });
  });
}
