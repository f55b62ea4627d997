import type { Config } from '../../config.ts';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { openPgliteThread } from './pglite-thread.ts';
import { openPostgres } from './postgres.ts';
import { migrate } from './migrate.ts';

export type { Db, Queryable, Row } from './db.ts';
export { inOrderOf, toVector } from './db.ts';
export { migrate } from './migrate.ts';

/** Open the configured store (PostgreSQL when DATABASE_URL is set, else PGlite) and migrate it. */
export async function openDb(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOL_SIZE'> &
    Partial<Pick<Config, 'PGLITE_THREAD' | 'PGLITE_SHARED_BUFFERS_MB' | 'DATABASE_PREPARED_STATEMENTS'>>,
): Promise<Db> {
  const pglite = { sharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB };
  const db = config.DATABASE_URL
    ? await openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE, {
        prepared: config.DATABASE_PREPARED_STATEMENTS,
      })
    : config.PGLITE_THREAD === false
      ? await openPglite(config.DATA_DIR, pglite)
      : await openPgliteThread(config.DATA_DIR, pglite);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
