import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testStores } from '../../../test/harness.ts';
import { createEventPublisher, EVENTS_CHANNEL, type EventNotice } from './index.ts';

for (const store of testStores) {
  test(`${store.name}: events are recorded and announced on commit, 25 notices to a notification`, async () => {
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
        'session_id',
      ]);
      assert.deepEqual(
        subscribed,
        rows.map((r) => r.id),
      );
      for (let i = 0; i < 50 && heard.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
      const parts = heard.map((p) => JSON.parse(p) as EventNotice[]);
      assert.deepEqual(parts.map((p) => p.length).sort(), [15, 25, 25]);
      const notices = parts.flat();
      assert.deepEqual(notices.map((n) => n.id).sort(), rows.map((r) => r.id).sort());
      assert.deepEqual(
        notices.find((n) => n.memory_id === 'm7'),
        {
          id: rows[7].id,
          organization_id: 'org_ev',
          kind: 'memory.completed',
          memory_id: 'm7',
          batch_id: 'b1',
          session_id: null,
        },
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
        [
          {
            id: one!.id,
            organization_id: 'org_ev',
            kind: 'memory.processing',
            memory_id: 'm1',
            batch_id: null,
            session_id: null,
          },
        ],
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

      // Full-size notices (every id a 36-character one, the longest kind) fit PostgreSQL's 8000 bytes.
      heard.length = 0;
      const uuid = (i: number) => `0190a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, '0')}`;
      await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'Long ids')`, [uuid(0)]);
      await db.transaction((tx) =>
        publish.all(
          tx,
          Array.from({ length: 25 }, (_, i) => ({
            kind: 'memory.quick_saved',
            organizationId: uuid(0),
            memoryId: uuid(i + 1),
            batchId: uuid(100),
            sessionId: uuid(200),
          })),
        ),
      );
      for (let i = 0; i < 50 && heard.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(heard.length, 1);
      assert.ok(Buffer.byteLength(heard[0]) < 8000, `${Buffer.byteLength(heard[0])} bytes`);
      assert.equal(JSON.parse(heard[0])[3].session_id, uuid(200));
      await unlisten();
    } finally {
      await db.close();
    }
  });
}
