/**
 * Webhooks: signed, retried deliveries of memory and batch completion (docs/webhooks.md).
 * Triggered by the events they report (an event subscriber), delivered by a job.
 */
import { webhookJobs } from './webhooks.jobs.ts';
import { createWebhooks, type WebhookSettings } from './webhooks.service.ts';
import { pruneDeliveries } from './webhooks.store.ts';

export function createWebhooksModule(settings: WebhookSettings) {
  const webhooks = createWebhooks(settings);
  return {
    /** Checks a caller's webhook and subscribes it to a memory or batch (in the writer's transaction). */
    webhooks,
    /** The event subscriber that turns a completion into deliveries. */
    onEvent: webhooks.onEvent,
    jobs: webhookJobs(settings),
  };
}

/** Retention of finished deliveries (the maintenance pass). */
export { pruneDeliveries };
export type { WebhookRequest, Webhooks, WebhookSettings } from './webhooks.service.ts';
