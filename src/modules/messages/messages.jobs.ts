/**
 * The background work of sessions: `message.memorize` makes the session's queued messages into
 * memories (each with metadata.sessionId, its role and time, so search can use neighbouring
 * turns), `session.summarize` refreshes the summaries every SUMMARY_EVERY messages.
 */
import type { Publish } from '../../platform/events/index.ts';
import type { JobHandler } from '../../platform/jobs/index.ts';
import type { Summarizer } from '../../platform/models/summarizer.ts';
import { ownerActor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import type { AddMemoryBody, MemoryWriter } from '../memories/index.ts';
import {
  claimQueued,
  failClaimed,
  lockClaimed,
  markFailed,
  markStored,
  sessionById,
  type MessageRow,
} from './messages.store.ts';
import type { SessionRow } from './messages.store.ts';
import { SESSION_FAILED, SESSION_MEMORIZED } from './session-events.ts';
import { refreshSummaries } from './summaries.ts';

export const MESSAGE_MEMORIZE = 'message.memorize';
export const SESSION_SUMMARIZE = 'session.summarize';
/** Spec §3: hierarchical summaries every 15 messages. */
export const SUMMARY_EVERY = 15;
/** Messages made into memories per transaction (one embedder call). */
const GROUP = 32;

/** The memory a message becomes. Its time is the message's unless the client gave metadata.createdAt. */
function memoryBody(s: SessionRow, m: MessageRow): AddMemoryBody {
  const options = m.memory_options as Partial<AddMemoryBody>;
  return {
    ...options,
    content: m.text,
    type: 'text',
    user_id: s.user_id,
    namespace_id: s.namespace_id ?? undefined,
    metadata: {
      createdAt: m.created_at.toISOString(),
      ...m.metadata,
      sessionId: s.session_key,
      role: m.role,
      messageId: m.id,
      sourceType: 'message',
    },
  } as AddMemoryBody;
}

export function messagesJobs(deps: {
  linked: MemoryWriter;
  summarizer: Summarizer;
  publish: Publish;
}): Record<string, JobHandler> {
  return {
    [MESSAGE_MEMORIZE]: {
      async run(job, ctx) {
        const s = await sessionById(ctx.db, String(job.payload.session_id));
        if (!s) return; // deleted meanwhile: nothing to do
        const actor = ownerActor(s.organization_id, s.user_id);
        for (;;) {
          const batch = await claimQueued(ctx.db, s.id, job.id, GROUP);
          if (!batch.length) return;
          const prepared = await deps.linked.prepareEach(
            actor,
            batch.map((m) => memoryBody(s, m)),
          );
          await ctx.db.transaction(async (tx) => {
            const still = await lockClaimed(
              tx,
              batch.map((m) => m.id),
              job.id,
            );
            const todo = batch.flatMap((m, i) => (still.has(m.id) ? [{ m, p: prepared[i] }] : []));
            const ready = todo.flatMap((x) => (x.p instanceof AppError ? [] : [{ m: x.m, p: x.p }]));
            const rows = await deps.linked.storeAll(
              tx,
              actor,
              ready.map((x) => x.p),
              {},
            );
            const refused = [
              ...todo.flatMap((x) => (x.p instanceof AppError ? [{ id: x.m.id, error: x.p.message }] : [])),
              ...rows.flatMap((r, i) => (r instanceof AppError ? [{ id: ready[i].m.id, error: r.message }] : [])),
            ];
            await markStored(
              tx,
              rows.flatMap((r, i) => (r instanceof AppError ? [] : [{ id: ready[i].m.id, memoryId: r.id }])),
            );
            for (const r of refused) await markFailed(tx, [r.id], r.error);
            await deps.publish(tx, { kind: SESSION_MEMORIZED, organizationId: s.organization_id, sessionId: s.id });
          });
        }
      },
      async onDead(job, error, ctx) {
        await ctx.db.transaction(async (tx) => {
          await failClaimed(tx, job.id, error.split('\n')[0]);
          if (job.organization_id)
            await deps.publish(tx, {
              kind: SESSION_FAILED,
              organizationId: job.organization_id,
              sessionId: String(job.payload.session_id),
            });
        });
      },
    },
    [SESSION_SUMMARIZE]: {
      async run(job, ctx) {
        await refreshSummaries(ctx.db, deps.summarizer, deps.publish, String(job.payload.session_id));
      },
    },
  };
}
