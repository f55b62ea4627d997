import type { Db } from './db.ts';

/**
 * What PostgreSQL's autovacuum does, for PGlite, which has none: without it the planner keeps
 * the statistics of the day a table was created, and index-only scans (BM25 statistics, the
 * secondary vector: migration 0011) fetch every heap row because no page is marked all-visible.
 * `VACUUM (ANALYZE)` of every table: ~2.5 s on a 100k-memory store once its pages are visible.
 * A no-op on PostgreSQL. Returns whether it ran.
 */
export async function vacuumEmbedded(db: Db): Promise<boolean> {
  if (db.kind !== 'pglite') return false;
  await db.exec('VACUUM (ANALYZE)');
  return true;
}
