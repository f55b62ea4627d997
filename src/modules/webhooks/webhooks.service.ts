import type { Queryable } from '../../platform/db/index.ts';
import { enqueue } from '../../platform/jobs/index.ts';
import { newId } from '../../shared/ids.ts';
import type { EventRow, EventSubscriber } from '../../platform/events/index.ts';
import { checkWebhookUrl, type Resolve } from './url-guard.ts';
import { insertDelivery, triggerDeliveries } from './webhooks.store.ts';

/** Job kind: POST one triggered webhook delivery. */
export const WEBHOOK_DELIVER = 'webhook.deliver';

/** The events a webhook reports; the others (batch.stored) are internal. */
const DELIVERED_EVENTS = new Set(['memory.completed', 'memory.failed', 'batch.completed']);

/** User-Agent of deliveries. */
export const VERSION_HEADER_VALUE = 'Engram-Webhooks/1';

export interface WebhookSettings {
  /** Deliver to loopback/private addresses (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Attempts before a delivery is recorded failed (WEBHOOK_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** One attempt's time limit (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Host name resolution, at registration and at connect time; the system's unless a test injects one. */
  resolve?: Resolve;
}

/** A validated subscription, ready to store with its memory or batch. */
export interface WebhookRequest {
  url: string;
  secret: string | null;
}

/** Webhook registration (with the write) and triggering (from events, in the event's transaction). */
export function createWebhooks(settings: WebhookSettings) {
  return {
    /** Validate before any transaction opens (DNS lookups are slow work). Throws AppError 422. */
    async check(url: string | undefined, secret: string | undefined): Promise<WebhookRequest | null> {
      if (!url) return null;
      return { url: await checkWebhookUrl(url, settings.allowPrivate, settings.resolve), secret: secret || null };
    },

    /** Store the subscription in the transaction that inserts its memory or batch. */
    async subscribe(
      tx: Queryable,
      organizationId: string,
      target: { memoryId?: string; batchId?: string },
      w: WebhookRequest,
    ): Promise<void> {
      await insertDelivery(tx, {
        id: newId(),
        organization_id: organizationId,
        memory_id: target.memoryId ?? null,
        batch_id: target.batchId ?? null,
        url: w.url,
        secret: w.secret,
      });
    },

    /** Event subscriber: a finished memory or batch triggers its subscriptions, once each. */
    onEvent: (async (tx: Queryable, event: EventRow) => {
      if (!DELIVERED_EVENTS.has(event.kind)) return;
      // A memory of a batch reports only through the batch's subscription (memory_id is null
      // there): only memories added alone carry a subscription of their own, so a batch's
      // memories need no lookup (one statement less for each memory of every batch).
      const memoryId = event.kind.startsWith('memory.') && !event.batch_id ? event.memory_id : null;
      const batchId = event.kind === 'batch.completed' ? event.batch_id : null;
      if (!memoryId && !batchId) return;
      for (const d of await triggerDeliveries(tx, {
        organizationId: event.organization_id,
        eventId: event.id,
        memoryId,
        batchId,
      })) {
        await enqueue(tx, {
          kind: WEBHOOK_DELIVER,
          organizationId: d.organization_id,
          payload: { delivery_id: d.id },
          maxAttempts: settings.maxAttempts,
        });
      }
    }) satisfies EventSubscriber,
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
