import { z } from 'zod';
import type { ReceiptKey } from '../../shared/receipt.ts';

/** The spec's error envelope (§7): HTTP status equals `code`. */
export const errorEnvelope = z
  .object({
    code: z.number().int().describe('The HTTP status code'),
    status: z.literal('error').describe('error'),
    error: z.string().describe('What went wrong, in words'),
    details: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        'Machine-readable details, or null: issues ({location, field, message}) of a validation error, fields in ' +
          'conflict, request_id of a 5xx',
      ),
  })
  .describe('Error');

/** Error statuses every authenticated route can answer; spread into `response`. */
export const errorResponses = {
  400: errorEnvelope,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  422: errorEnvelope,
  429: errorEnvelope,
  500: errorEnvelope,
} as const;

/** Every receipt key with its description (the type makes a new key fail to compile here until described). */
const receiptField: Record<ReceiptKey, string> = {
  memories: 'Memories deleted',
  chunks: 'Their searchable chunks',
  vectors: 'Embedding vectors of those chunks (a chunk holds one per embedding model)',
  graph_links: 'Links between the deleted memories and graph nodes',
  graph_nodes: 'Graph nodes gone (no memory links to them any more, or deleted with the namespace)',
  relationships: 'Graph relationships gone (those the memories produced, and those of gone nodes)',
  transforms: 'Stored graph-transform artifacts of the memories',
  feedback: 'Feedback rows on searches',
  feedback_signals: 'Per-memory ranking signals of feedback',
  search_log: 'Logged searches (query text and result ids)',
  events: 'Lifecycle events (memory, batch and document events)',
  webhook_deliveries: 'Webhook deliveries registered for what was deleted',
  jobs: 'Background jobs not running at the time (queued, failed, completed or dead) for what was deleted',
  sessions: 'Chat sessions',
  messages: 'Chat messages of those sessions',
  documents: 'Document uploads',
  document_chunks: 'Chunk records of those uploads',
  document_files: 'Stored document files (kept only while an upload is processed)',
  users: 'User rows',
  auth_sessions: 'Login sessions of the user',
  oauth_grants: 'OAuth identities and refresh tokens of the user',
  graph_schemas: "Graph schemas (a namespace's, or a user's personal ones)",
  api_keys: 'API keys',
};

/** The `deleted` receipt every delete answers with (src/shared/receipt.ts; docs/api-conventions.md). */
export const deletionReceipt = z
  .object(
    Object.fromEntries(Object.entries(receiptField).map(([k, d]) => [k, z.number().int().describe(d)])) as Record<
      ReceiptKey,
      z.ZodNumber
    >,
  )
  .describe('Counts of everything the delete removed, by kind (0 for kinds it does not touch)');
