import pg from 'pg';
import { createHash } from 'node:crypto';
import { SESSION_SETTINGS, type Db, type Queryable, type QueryOptions } from './db.ts';
import { createPgListener } from './pg-listener.ts';

// int8 as numbers, as on PGlite (counts and sums stay far below 2^53).
pg.types.setTypeParser(20, (v) => Number(v));

/** A prepared statement's name: its text's, so one text is one statement on every connection. */
const names = new Map<string, string>();
function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `engram_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    if (names.size < 1000) names.set(sql, name);
  }
  return name;
}

/** PostgreSQL server store through a `pg` pool. */
export async function openPostgres(url: string, poolSize = 10, opts: { prepared?: boolean } = {}): Promise<Db> {
  const prepare = opts.prepared !== false;
  // Connections are kept, not closed after pg-pool's default 10 s idle: a new server process
  // pays ~50 ms for its first statements (catalogs, the pgvector library, shared-buffer page
  // tables), and a search that met a fresh connection had that in its latency (bench:search
  // at 100k: the p95 tail). The pool never holds more than `poolSize` either way.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 0,
    options: SESSION_SETTINGS.map((s) => `-c ${s}`).join(' '),
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T extends object>(sql: string, params: unknown[] = [], options?: QueryOptions) {
      const res =
        prepare && options?.prepared
          ? await c.query({ name: statementName(sql), text: sql, values: params })
          : await c.query(sql, params);
      return res.rows as T[];
    },
    async exec(sql: string) {
      await c.query(sql); // no parameters: the simple protocol accepts several statements
    },
  });
  await pool.query('SELECT 1'); // fail fast with the driver's message when unreachable
  const listener = createPgListener(url);
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    ping: async () => {
      await pool.query('SELECT 1');
    },
    listen: (channel, fn) => listener.listen(channel, fn),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}
