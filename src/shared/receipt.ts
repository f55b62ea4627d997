/**
 * A deletion receipt (issue #22): how many rows of each kind one delete removed, the same keys
 * on every delete route (`deleted` in the response), zero for what the route does not touch.
 * Each module's store counts what it removes; the service adds the parts up.
 */
export const RECEIPT_KEYS = [
  'memories',
  'chunks',
  'vectors',
  'graph_links',
  'graph_nodes',
  'relationships',
  'transforms',
  'feedback',
  'feedback_signals',
  'search_log',
  'events',
  'webhook_deliveries',
  'jobs',
  'sessions',
  'messages',
  'documents',
  'document_chunks',
  'document_files',
  'users',
  'auth_sessions',
  'oauth_grants',
  'graph_schemas',
  'api_keys',
] as const;

export type ReceiptKey = (typeof RECEIPT_KEYS)[number];
export type DeletionReceipt = Record<ReceiptKey, number>;
export type ReceiptPart = Partial<DeletionReceipt>;

/** Every key zero, plus the parts added up. */
export function receipt(...parts: ReceiptPart[]): DeletionReceipt {
  const out = Object.fromEntries(RECEIPT_KEYS.map((k) => [k, 0])) as DeletionReceipt;
  for (const part of parts) for (const k of RECEIPT_KEYS) out[k] += Number(part[k] ?? 0);
  return out;
}
