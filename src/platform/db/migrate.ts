import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../root.ts';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = path.join(ROOT_DIR, 'migrations');
/** Serialises migrations across processes starting at once on one PostgreSQL. */
const MIGRATION_LOCK = 72_420_001;

/**
 * Apply `migrations/NNNN_name.sql` in order, each in its own transaction, recording
 * what ran in `schema_migrations`. Identical on both stores.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort();
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations ' +
      '(name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = fs.readFileSync(path.join(dir, file), 'utf8');
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
  });
  return applied;
}
