import type { Queryable } from '../db/index.ts';
import { newId } from '../../shared/ids.ts';
import { insertEvents, type EventRow } from './events.store.ts';

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
  /** A chat session's own id (its events: docs/realtime.md), else null. */
  session_id: string | null;
}

export interface NewEvent {
  kind: string;
  organizationId: string;
  memoryId?: string | null;
  batchId?: string | null;
  sessionId?: string | null;
  payload?: Record<string, unknown>;
}

/** Reacts to a committed-with-the-change event inside the writer's transaction (e.g. enqueue a job). */
export type EventSubscriber = (tx: Queryable, event: EventRow) => Promise<void>;

/** Records events in the caller's transaction. */
export interface Publish {
  /** One event; resolves undefined when it was already recorded. */
  (tx: Queryable, event: NewEvent): Promise<EventRow | undefined>;
  /** Many events in a few statements (a batch group's memories); resolves the ones recorded. */
  all(tx: Queryable, events: NewEvent[]): Promise<EventRow[]>;
}

/**
 * pg_notify payloads stay under PostgreSQL's 8000-byte limit: a notice with every id set is
 * about 275 bytes (five 36-character ids, the kind, json_build_object's spacing).
 */
const NOTICES_PER_NOTIFY = 25;

/**
 * The event bus (house rule 8): writers record what happened; subscribers decide the side
 * effects, in the same transaction, so a side effect exists exactly when its cause commits.
 * Subscribers must only write (enqueue jobs), never do slow work: the transaction is open.
 * A duplicate event (unique per subject) does not reach the subscribers again. Each event is
 * also NOTIFYed on EVENTS_CHANNEL for live pushes.
 */
export function createEventPublisher(subscribers: EventSubscriber[] = []): Publish {
  const all = async (tx: Queryable, es: NewEvent[]): Promise<EventRow[]> => {
    const rows = await insertEvents(
      tx,
      es.map((e) => ({
        id: newId(),
        organization_id: e.organizationId,
        kind: e.kind,
        memory_id: e.memoryId ?? null,
        batch_id: e.batchId ?? null,
        session_id: e.sessionId ?? null,
        payload: e.payload ?? {},
      })),
      { channel: EVENTS_CHANNEL, perNotify: NOTICES_PER_NOTIFY },
    );
    for (const row of rows) for (const s of subscribers) await s(tx, row);
    return rows;
  };
  return Object.assign(async (tx: Queryable, e: NewEvent) => (await all(tx, [e]))[0], { all });
}
