/**
 * Chat sessions and their messages: stored turn by turn, summarised every 15 messages, made
 * into memories in the background (docs/messages.md). Built after the memories module, whose
 * writer stores a message's memory in the same transaction that marks the message done.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Publish } from '../../platform/events/index.ts';
import type { JobHandler } from '../../platform/jobs/index.ts';
import type { Summarizer } from '../../platform/models/summarizer.ts';
import type { MemoryWriter } from '../memories/index.ts';
import { messagesJobs } from './messages.jobs.ts';
import { messagesRoutes } from './messages.routes.ts';
import { createMessagesService, type MessagesDeps } from './messages.service.ts';
import { deleteNamespaceSessions, deleteUserSessions, detachNamespaceSessions } from './cascade.store.ts';

export function createMessagesModule(deps: MessagesDeps) {
  const service = createMessagesService(deps);
  const routes: FastifyPluginAsyncZod = async (app) => app.register(messagesRoutes(service));
  return { service, routes };
}

/** The job handlers (the worker's): memorizing queued messages, refreshing summaries. */
export function messagesProcessing(deps: {
  linked: MemoryWriter;
  summarizer: Summarizer;
  publish: Publish;
}): Record<string, JobHandler> {
  return messagesJobs(deps);
}

/** What user and namespace deletions remove of sessions (their ports): counts of sessions and messages. */
export const sessionContent = {
  deleteUserSessions,
  namespace: { deleteIn: deleteNamespaceSessions, detachFrom: detachNamespaceSessions },
};
export type { RemovedSessions } from './cascade.store.ts';
export type { MessagesService } from './messages.service.ts';
export { sessionParams } from './messages.schemas.ts';
