/**
 * What each status stream reads and listens for (docs/realtime.md): the body of its resource's
 * REST status route, read through that route's own service (the same shaping, the same tenancy
 * checks: what the route answers 404 the stream refuses as 4404), whether the resource is
 * settled (the stream then closes), and the ids its events carry.
 */
import type { EventNotice } from '../../platform/events/index.ts';
import type { Actor } from '../../shared/actor.ts';
import type { MemoryStatusService } from '../memories/index.ts';

export type Resource = 'memory' | 'batch' | 'document' | 'session';

/** The status services of the REST routes, as the streams use them (the composition root passes them in). */
export interface StatusPorts {
  memories: MemoryStatusService;
  /** GET /v1/document/status/{id}'s service. */
  documents: { status(actor: Actor, id: string, timeline: boolean): Promise<{ status: string }> };
  /** GET /v1/messages/sessions/{id}/status's service, with the ids the session's events carry. */
  sessions: {
    live(
      actor: Actor,
      key: string,
    ): Promise<{
      status: { processing: { queued: number; analyzing: number } };
      sessionId: string;
      memoryIds: string[];
    }>;
  };
}

/** The ids of the events that concern a stream (any one matching is enough). */
export interface Routes {
  memoryIds?: ReadonlySet<string>;
  batchId?: string;
  sessionId?: string;
}

export interface Reading {
  message: { type: 'status'; resource: Resource };
  settled: boolean;
  routes: Routes;
}

const MEMORY_SETTLED = new Set(['completed', 'failed', 'partial']);
const DOCUMENT_SETTLED = new Set(['completed', 'failed', 'cancelled']);

/** Reads a resource's current status as its stream sends it; throws the service's AppError (404, 403). */
export function statusReader(ports: StatusPorts) {
  return async (actor: Actor, resource: Resource, id: string): Promise<Reading> => {
    if (resource === 'memory') {
      const view = await ports.memories.memory(actor, id);
      return {
        message: { type: 'status', resource, ...view },
        settled: MEMORY_SETTLED.has(view.processing_status),
        routes: { memoryIds: new Set([id]) },
      };
    }
    if (resource === 'batch') {
      // The per-memory list can hold a thousand rows: a push carries the summary only.
      const { memories: _all, ...summary } = await ports.memories.batch(actor, id);
      return {
        message: { type: 'status', resource, ...summary },
        settled: MEMORY_SETTLED.has(summary.processing_status),
        routes: { batchId: id },
      };
    }
    if (resource === 'document') {
      const view = await ports.documents.status(actor, id, false);
      // An upload is one batch with the upload's id: its chunks' memory events carry it too.
      return {
        message: { type: 'status', resource, ...view },
        settled: DOCUMENT_SETTLED.has(view.status),
        routes: { batchId: id },
      };
    }
    const live = await ports.sessions.live(actor, id);
    const { queued, analyzing } = live.status.processing;
    return {
      message: { type: 'status', resource, ...live.status },
      // New messages may come later, but what was sent is processed: as a batch, the stream ends.
      settled: queued + analyzing === 0,
      routes: { sessionId: live.sessionId, memoryIds: new Set(live.memoryIds) },
    };
  };
}

/** Whether notice `n` concerns a stream with these routes (its organization is checked by the caller). */
export function concerns(routes: Routes, n: EventNotice): boolean {
  return (
    (!!n.memory_id && !!routes.memoryIds?.has(n.memory_id)) ||
    (!!n.batch_id && n.batch_id === routes.batchId) ||
    (!!n.session_id && n.session_id === routes.sessionId)
  );
}
