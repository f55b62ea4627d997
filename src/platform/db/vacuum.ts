import type { Db } from './db.ts';

/**
 * PostgreSQL's autovacuum thresholds (its defaults; a table's own storage parameters of the
 * same names win, as they do for autovacuum): a table is vacuumed once its dead rows pass
 * 50 + 20 % of its rows or its inserts since the last vacuum pass 1000 + 20 %, and analysed
 * once its changes since the last analyse pass 50 + 10 %.
 */
const DEFAULTS = {
  autovacuum_vacuum_threshold: 50,
  autovacuum_vacuum_scale_factor: 0.2,
  autovacuum_vacuum_insert_threshold: 1000,
  autovacuum_vacuum_insert_scale_factor: 0.2,
  autovacuum_analyze_threshold: 50,
  autovacuum_analyze_scale_factor: 0.1,
};
type Thresholds = typeof DEFAULTS;

interface TableActivity {
  name: string;
  dead: number;
  inserted: number;
  modified: number;
  tuples: number;
  /** The table's storage parameters (`reloptions`), e.g. `autovacuum_vacuum_insert_scale_factor=0.02`. */
  options: string[] | null;
}

function thresholdsOf(t: TableActivity): Thresholds {
  const th = { ...DEFAULTS };
  for (const opt of t.options ?? []) {
    const [k, v] = opt.split('=');
    if (k in th && Number.isFinite(Number(v))) th[k as keyof Thresholds] = Number(v);
  }
  return th;
}

/**
 * Whether this store needs us to do autovacuum's work: PGlite has no background workers, and a
 * PostgreSQL server may run with `autovacuum = off` (this project's CI server does; so do
 * servers tuned for bulk loads). Without it the planner keeps the statistics of the day a table
 * was created: a search's session-neighbour lookup scanned every memory of the user per
 * candidate (90 ms instead of 2 on LoCoMo, PGlite), and on PostgreSQL a page of results was
 * fetched by intersecting the primary key with the whole organization's index (the planner
 * expected 128 rows of 20,000). Index-only scans (BM25 statistics, the vector scan indexes)
 * also fetch every heap row while no page is marked all-visible.
 */
export async function needsOwnAutovacuum(db: Db): Promise<boolean> {
  if (db.kind === 'pglite') return true;
  const [row] = await db.query<{ on: boolean }>(`SELECT current_setting('autovacuum')::bool AS on`);
  return !row.on;
}

/**
 * What autovacuum does, for a store without it (see needsOwnAutovacuum; callers ask that
 * first): vacuums or analyses each of our tables (those of the current schema) that passed
 * autovacuum's thresholds since its last run, the defaults or the table's own storage
 * parameters. Cheap when nothing did (two catalogue reads). Returns what it did. Several
 * worker processes may run it against one server: their timers are not aligned and a pass
 * resets a table's counters, so a table is seldom done twice.
 */
export async function autovacuumPass(db: Db): Promise<{ vacuumed: string[]; analysed: string[] }> {
  const done = { vacuumed: [] as string[], analysed: [] as string[] };
  // PGlite's single-user backend hands its table counters to the statistics only when asked
  // (a server's backends flush theirs within seconds by themselves).
  if (db.kind === 'pglite') await db.query('SELECT pg_stat_force_next_flush()');
  const tables = await db.query<TableActivity>(
    `SELECT format('%I.%I', s.schemaname, s.relname) AS name, s.n_dead_tup::float8 AS dead,
            s.n_ins_since_vacuum::float8 AS inserted, s.n_mod_since_analyze::float8 AS modified,
            greatest(c.reltuples, 0)::float8 AS tuples, c.reloptions AS options
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = current_schema()`,
  );
  for (const t of tables) {
    const th = thresholdsOf(t);
    if (
      t.dead > th.autovacuum_vacuum_threshold + th.autovacuum_vacuum_scale_factor * t.tuples ||
      // An insert threshold of -1 switches insert-driven vacuums off (as for autovacuum).
      (th.autovacuum_vacuum_insert_threshold >= 0 &&
        t.inserted > th.autovacuum_vacuum_insert_threshold + th.autovacuum_vacuum_insert_scale_factor * t.tuples)
    ) {
      await db.exec(`VACUUM (ANALYZE) ${t.name}`);
      done.vacuumed.push(t.name);
    } else if (t.modified > th.autovacuum_analyze_threshold + th.autovacuum_analyze_scale_factor * t.tuples) {
      await db.exec(`ANALYZE ${t.name}`);
      done.analysed.push(t.name);
    }
  }
  return done;
}
