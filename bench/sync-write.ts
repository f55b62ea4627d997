/**
 * What the sync change feed costs a write (issue #21): the store side of one batch group of
 * SYNC_BENCH_N (100) memories — their rows and chunks inserted in one transaction, as the
 * memory writer does, with no model call — then the same memories updated (content) and
 * deleted, timed on each store. Each store is opened twice, without migration 0023 and with it,
 * and the rounds alternate between the two. Prints medians of SYNC_BENCH_RUNS.
 *   npx tsx bench/sync-write.ts      (BENCH_DATABASE_URL defaults to the local test server)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite } from '../src/platform/db/pglite.ts';
import { openPostgres } from '../src/platform/db/postgres.ts';
import { migrate, type Db } from '../src/platform/db/index.ts';
import { insertChunks, insertMemories, type NewMemory } from '../src/modules/memories/memories.store.ts';
import { createOrganization } from '../src/modules/organizations/organizations.service.ts';
import { resolveExternalUser } from '../src/modules/users/users.store.ts';
import { newId } from '../src/shared/ids.ts';
import { scratchDatabase } from '../test/harness.ts';
import { fmt, median } from './stats.ts';

const N = Number(process.env.SYNC_BENCH_N || 100);
const RUNS = Number(process.env.SYNC_BENCH_RUNS || 25);
const BASE = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const OURS = '0023';

/** A copy of the migrations without 0023 (the store as it was before the sync feed). */
function migrationsBefore(): string {
  const src = path.resolve(import.meta.dirname, '../migrations');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-mig-'));
  for (const f of fs.readdirSync(src)) if (!f.startsWith(OURS)) fs.copyFileSync(path.join(src, f), path.join(dir, f));
  return dir;
}

interface Timing {
  insert: number;
  update: number;
  remove: number;
}

/** A migrated store with one organization and user, and one timed round on it. */
async function prepare(db: Db, dir?: string) {
  await migrate(db, dir);
  const org = await db.transaction((tx) => createOrganization(tx, 'bench'));
  const user = await resolveExternalUser(db, org.organizationId, 'bench-user');
  return async (r: number): Promise<Timing> => {
    const ms: NewMemory[] = Array.from({ length: N }, (_, i) => ({
      id: newId(),
      organization_id: org.organizationId,
      namespace_id: null,
      user_id: user.id,
      external_user_id: 'bench-user',
      content: `Memory ${r}-${i} about the quarterly planning meeting and its action items.`,
      type: 'text',
      metadata: { topics: ['planning'] },
      context: null,
      policy: {},
      acl_read: [`user:${user.id}`],
      acl_write: [`user:${user.id}`],
      consent: 'implicit',
      risk: 'none',
      status: 'completed',
      batch_id: null,
      content_bytes: 80,
      occurred_at: null,
      graph_plan: null,
    }));
    const vector = Array.from({ length: 512 }, (_, k) => Math.sin(k + r));
    const t0 = performance.now();
    await db.transaction(async (tx) => {
      const rows = await insertMemories(tx, ms);
      await insertChunks(
        tx,
        rows.map((memory) => ({
          memory,
          chunks: [
            {
              id: newId(),
              index: 0,
              text: memory.content,
              terms: 'quarterli plan meet action item',
              docLen: 5,
              embedding: vector,
              embeddingModel: 'bench',
              embedding2: null,
              embedding2Model: null,
            },
          ],
        })),
      );
    });
    const t1 = performance.now();
    const ids = ms.map((m) => m.id);
    await db.query(`UPDATE memories SET content = content || ' (edited)', updated_at = now() WHERE id = ANY($1)`, [
      ids,
    ]);
    const t2 = performance.now();
    await db.query('DELETE FROM memories WHERE id = ANY($1)', [ids]);
    const t3 = performance.now();
    return { insert: t1 - t0, update: t2 - t1, remove: t3 - t2 };
  };
}

async function open(name: 'pglite' | 'postgres') {
  const scratch = name === 'postgres' ? await scratchDatabase(BASE) : null;
  const db = scratch ? await openPostgres(scratch.url, 2) : await openPglite();
  return { db, close: async () => (await db.close(), await scratch?.drop()) };
}

for (const name of ['pglite', 'postgres'] as const) {
  const before = await open(name);
  const after = await open(name);
  try {
    const rounds = { before: await prepare(before.db, migrationsBefore()), after: await prepare(after.db) };
    const runs: Record<keyof typeof rounds, Timing[]> = { before: [], after: [] };
    // Alternated, so a busy moment of the machine falls on both; the first rounds warm up and are dropped.
    for (let r = 0; r < RUNS; r++) {
      for (const k of r % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
        const t = await rounds[k](r);
        if (r >= 3) runs[k].push(t);
      }
    }
    const m = (k: keyof typeof rounds, f: keyof Timing) => fmt(median(runs[k].map((x) => x[f])));
    for (const k of ['before', 'after'] as const) {
      console.log(
        `${name} ${k === 'before' ? 'without' : 'with   '} ${OURS}: ${N} memories — insert (rows + chunks) ` +
          `${m(k, 'insert')}, update ${m(k, 'update')}, delete ${m(k, 'remove')} (median of ${runs[k].length})`,
      );
    }
  } finally {
    await before.close();
    await after.close();
  }
}
