import type { Db } from './db.ts';

/**
 * PostgreSQL's autovacuum thresholds (its defaults): a table is vacuumed once its dead rows
 * pass 50 + 20 % of its rows or its inserts since the last vacuum pass 1000 + 20 %, and
 * analysed once its changes since the last analyse pass 50 + 10 %.
 */
const VACUUM = { base: 50, scale: 0.2 };
const VACUUM_INSERTS = { base: 1000, scale: 0.2 };
const ANALYZE = { base: 50, scale: 0.1 };

interface TableActivity {
  name: string;
  dead: number;
  inserted: number;
  modified: number;
  tuples: number;
}

/**
 * What PostgreSQL's autovacuum does, for PGlite, which has none: without it the planner keeps
 * the statistics of the day a table was created (a search's session-neighbour lookup then
 * scanned every memory of the user per candidate: 90 ms instead of 2 on LoCoMo), and
 * index-only scans (BM25 statistics, the vector scan indexes) fetch every heap row because no
 * page is marked all-visible. Vacuums or analyses each table that passed autovacuum's
 * thresholds since its last run; cheap when nothing did (two catalogue reads). A no-op on
 * PostgreSQL. Returns what it did.
 */
export async function autovacuumEmbedded(db: Db): Promise<{ vacuumed: string[]; analysed: string[] }> {
  const done = { vacuumed: [] as string[], analysed: [] as string[] };
  if (db.kind !== 'pglite') return done;
  // PGlite's single-user backend hands its table counters to the statistics only when asked.
  await db.query('SELECT pg_stat_force_next_flush()');
  const tables = await db.query<TableActivity>(
    `SELECT format('%I.%I', s.schemaname, s.relname) AS name, s.n_dead_tup::float8 AS dead, s.n_ins_since_vacuum::float8 AS inserted,
            s.n_mod_since_analyze::float8 AS modified, greatest(c.reltuples, 0)::float8 AS tuples
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid`,
  );
  const over = (n: number, t: TableActivity, th: { base: number; scale: number }) => n > th.base + th.scale * t.tuples;
  for (const t of tables) {
    if (over(t.dead, t, VACUUM) || over(t.inserted, t, VACUUM_INSERTS)) {
      await db.exec(`VACUUM (ANALYZE) ${t.name}`);
      done.vacuumed.push(t.name);
    } else if (over(t.modified, t, ANALYZE)) {
      await db.exec(`ANALYZE ${t.name}`);
      done.analysed.push(t.name);
    }
  }
  return done;
}
