/**
 * The feedback port's memory of users without feedback: no statement for them once known, and
 * forgotten by the NOTIFY of a new signal — from this process or (PostgreSQL) another one.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { openPostgres } from '../../platform/db/postgres.ts';
import { testStores } from '../../../test/harness.ts';
import { makeOrg } from '../../../test/factories.ts';
import { waitFor } from '../../../test/wait.ts';
import { createFeedbackBoosts, type FeedbackSignal } from './boosts.ts';
import { insertSignals } from './feedback.store.ts';

/** `db` counting the statements run through it. */
function counting(db: Db): Queryable & { count: number } {
  const q = {
    count: 0,
    query: <T extends object>(sql: string, params?: unknown[]) => {
      q.count++;
      return db.query<T>(sql, params);
    },
    exec: (sql: string) => db.exec(sql),
  };
  return q;
}

/** A feedback row and its signals, as the service stores them (one transaction, NOTIFY on commit). */
async function give(db: Db, organizationId: string, userId: string, memoryId: string, signal: number) {
  const id = `fb-${Math.random().toString(36).slice(2)}`;
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO feedback (id, organization_id, sent_by, search_id, feedback_type, feedback_source, signal, data)
       VALUES ($1, $2, 'x', 's', 'thumbs_up', 'inline', $3, '{}')`,
      [id, organizationId, signal],
    );
    await insertSignals(tx, { organizationId, userId, feedbackId: id, memoryIds: [memoryId], signal });
  });
}

for (const store of testStores) {
  describe(`feedback boosts: users without feedback cost no statement [${store.name}]`, () => {
    let db: Db;
    let org: string;
    let boosts: FeedbackSignal;
    before(async () => {
      db = await store.open();
      org = (await makeOrg(db)).organizationId;
      boosts = createFeedbackBoosts(db, 0);
    });
    after(async () => {
      await boosts.close();
      await db.close();
    });
    const scope = (userId: string) => ({ organizationId: org, userId });

    it('probes once, then remembers; a new signal (NOTIFY) makes it probe again and boost', async () => {
      const q = counting(db);
      // The first call subscribes; until the subscription stands nothing is remembered.
      await waitFor(async () => {
        const before = q.count;
        await boosts.boosts(q, scope('u1'), ['m1', 'm2']);
        return q.count === before;
      });
      const known = q.count;
      assert.deepEqual(await boosts.boosts(q, scope('u1'), ['m1', 'm2']), new Map());
      assert.equal(q.count, known, 'a user known to have no feedback: no statement');

      await give(db, org, 'u1', 'm2', 1);
      const boosted = await waitFor(async () => {
        const b = await boosts.boosts(q, scope('u1'), ['m1', 'm2']);
        return b.size > 0 && b;
      });
      assert.ok(Math.abs(boosted.get('m2')! - Math.tanh(0.5)) < 1e-6);
      assert.ok(!boosted.has('m1'));
      // A user with feedback is never remembered as without: every search asks.
      const before = q.count;
      await boosts.boosts(q, scope('u1'), ['m3']);
      await boosts.boosts(q, scope('u1'), ['m3']);
      assert.equal(q.count, before + 2);
    });

    it('a net of zero is no boost; a user’s signals are not another’s', async () => {
      await give(db, org, 'u2', 'm1', 1);
      await give(db, org, 'u2', 'm1', -1);
      assert.equal((await boosts.boosts(db, scope('u2'), ['m1'])).size, 0);
      assert.equal((await boosts.boosts(db, scope('u3'), ['m2'])).size, 0);
    });

    if (store.name === 'postgres') {
      it('a signal stored by another process is heard too', async () => {
        const q = counting(db);
        await waitFor(async () => {
          const before = q.count;
          await boosts.boosts(q, scope('u4'), ['m1']);
          return q.count === before;
        });
        const other = await openPostgres((db as Db & { url: string }).url, 1);
        try {
          await give(other, org, 'u4', 'm1', 1);
        } finally {
          await other.close();
        }
        await waitFor(async () => (await boosts.boosts(q, scope('u4'), ['m1'])).size === 1);
      });
    }
  });
}
