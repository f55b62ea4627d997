import type { Queryable } from '../db/index.ts';
import { newId } from '../../shared/ids.ts';
import { insertEvent, type EventRow } from './events.store.ts';

export type { EventRow } from './events.store.ts';

/** NOTIFY channel carrying every committed event (WebSocket pushes in any process listen). */
export const EVENTS_CHANNEL = 'engram_events';

/** What travels on EVENTS_CHANNEL: enough to route the push; listeners read the current state. */
export interface EventNotice {
  id: string;
  organization_id: string;
  kind: string;
  memory_id: string | null;
  batch_id: string | null;
}

export interface NewEvent {
  kind: string;
  organizationId: string;
  memoryId?: string | null;
  batchId?: string | null;
  payload?: Record<string, unknown>;
}

/** Reacts to a committed-with-the-change event inside the writer's transaction (e.g. enqueue a job). */
export type EventSubscriber = (tx: Queryable, event: EventRow) => Promise<void>;

/** Record an event in the caller's transaction; resolves undefined when it was already recorded. */
export type Publish = (tx: Queryable, event: NewEvent) => Promise<EventRow | undefined>;

/**
 * The event bus (house rule 8): writers record what happened; subscribers decide the side
 * effects, in the same transaction, so a side effect exists exactly when its cause commits.
 * Subscribers must only write (enqueue jobs), never do slow work: the transaction is open.
 * A duplicate event (unique per subject) does not reach the subscribers again. Each event is
 * also NOTIFYed on EVENTS_CHANNEL for live pushes.
 */
export function createEventPublisher(subscribers: EventSubscriber[] = []): Publish {
  return async (tx, e) => {
    const row = await insertEvent(tx, {
      id: newId(),
      organization_id: e.organizationId,
      kind: e.kind,
      memory_id: e.memoryId ?? null,
      batch_id: e.batchId ?? null,
      payload: e.payload ?? {},
    });
    if (!row) return undefined;
    for (const s of subscribers) await s(tx, row);
    // Delivered on commit, so a listener never hears of a change it cannot read yet.
    const notice: EventNotice = { id: row.id, organization_id: row.organization_id, kind: row.kind, memory_id: row.memory_id, batch_id: row.batch_id };
    await tx.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify(notice)]);
    return row;
  };
}
