/** Messages as the client reads them: the text of a content, and a stored message's shape and status. */
import { iso } from '../../shared/time.ts';
import type { StoreMessageBody } from './messages.schemas.ts';
import type { MessageRow } from './messages.store.ts';

/** The text of a message: the string, or its parts' texts joined by blank lines. */
export function messageText(content: StoreMessageBody['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((p) => p.text ?? '')
    .filter((t) => t.trim())
    .join('\n\n');
}

/** A message as the client reads it; its processing status follows the memory it became. */
export function toMessage(m: MessageRow, sessionKey: string) {
  const memory = m.memory_status;
  const processing_status =
    m.state === 'stored'
      ? memory === 'quick_saved' || memory === 'processing'
        ? ('analyzing' as const)
        : memory === 'failed'
          ? ('failed' as const)
          : ('completed' as const) // completed, or its memory was deleted since
      : m.state === 'claimed'
        ? ('queued' as const)
        : m.state;
  return {
    objectId: m.id,
    sessionId: sessionKey,
    role: m.role as 'user' | 'assistant',
    content: m.content as StoreMessageBody['content'],
    createdAt: iso(m.created_at)!,
    processing_status,
    memoryId: m.memory_id,
    metadata: m.metadata,
  };
}
