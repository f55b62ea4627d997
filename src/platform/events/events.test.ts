import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testStores } from '../../../test/harness.ts';
import { createEventPublisher, EVENTS_CHANNEL, type EventNotice } from './index.ts';

for (const store of testStores) {
  test(`${store.name}: events are recorded and announced on commit, 30 notices to a notification`, async () => {
    const db = await store.open();
    try {
      await db.query(`INSERT INTO organizations (id, name) VALUES ('org_ev', 'Events')`);
      const heard: string[] = [];
      const unlisten = await db.listen(EVENTS_CHANNEL, (p) => heard.push(p));
      const subscribed: string[] = [];
      const publish = createEventPublisher([async (_tx, e) => void subscribed.push(e.id)]);
      const events = Array.from({ length: 65 }, (_, i) => ({
        kind: 'memory.completed',
        organizationId: 'org_ev',
        memoryId: `m${i}`,
        batchId: 'b1',
      }));
      const rows = await db.transaction(async (tx) => {
        const recorded = await publish.all(tx, events);
        await new Promise((r) => setTimeout(r, 50));
        assert.equal(heard.length, 0, 'nothing is announced before the commit');
        return recorded;
      });
      assert.deepEqual(
        rows.map((r) => r.memory_id),
        events.map((e) => e.memoryId),
        'rows come back in the order given',
      );
      assert.deepEqual(Object.keys(rows[0]).sort(), [
        'batch_id',
        'created_at',
        'id',
        'kind',
        'memory_id',
        'organization_id',
        'payload',
      ]);
      assert.deepEqual(
        subscribed,
        rows.map((r) => r.id),
      );
      for (let i = 0; i < 50 && heard.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
      const parts = heard.map((p) => JSON.parse(p) as EventNotice[]);
      assert.deepEqual(parts.map((p) => p.length).sort(), [30, 30, 5]);
      const notices = parts.flat();
      assert.deepEqual(notices.map((n) => n.id).sort(), rows.map((r) => r.id).sort());
      assert.deepEqual(
        notices.find((n) => n.memory_id === 'm7'),
        { id: rows[7].id, organization_id: 'org_ev', kind: 'memory.completed', memory_id: 'm7', batch_id: 'b1' },
      );

      // One event: one notice, not an array. A duplicate (once per memory) is neither recorded nor announced.
      heard.length = 0;
      const one = await db.transaction((tx) =>
        publish(tx, { kind: 'memory.processing', organizationId: 'org_ev', memoryId: 'm1' }),
      );
      const dup = await db.transaction((tx) =>
        publish(tx, { kind: 'memory.completed', organizationId: 'org_ev', memoryId: 'm1', batchId: 'b1' }),
      );
      assert.equal(dup, undefined);
      for (let i = 0; i < 50 && heard.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(
        heard.map((p) => JSON.parse(p)),
        [{ id: one!.id, organization_id: 'org_ev', kind: 'memory.processing', memory_id: 'm1', batch_id: null }],
      );

      // A rolled-back transaction announces nothing.
      await db
        .transaction(async (tx) => {
          await publish(tx, { kind: 'memory.processing', organizationId: 'org_ev', memoryId: 'm2' });
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(heard.length, 1);
      await unlisten();
    } finally {
      await db.close();
    }
  });
}
