import type { JobHandler } from '../../platform/jobs/index.ts';
import { getEvent, type EventRow } from '../../platform/events/index.ts';
import { VERSION_HEADER_VALUE, WEBHOOK_DELIVER, type WebhookSettings } from './webhooks.service.ts';
import { signWebhook } from './signature.ts';
import { checkWebhookUrl } from './url-guard.ts';
import { failDelivery, getDelivery, recordAttempt, type DeliveryRow } from './webhooks.store.ts';

/** The JSON body of every delivery (docs/webhooks.md documents each field). */
export function webhookBody(d: DeliveryRow, event: EventRow, attempt: number) {
  const p = event.payload ?? {};
  return {
    event: event.kind,
    event_id: event.id,
    delivery_id: d.id,
    attempt,
    organization_id: d.organization_id,
    memory_id: event.memory_id,
    batch_id: event.batch_id,
    status: p.status ?? null,
    counts: p.counts ?? null,
    error: p.error ?? null,
    created_at: p.created_at ?? null,
    finished_at: event.created_at.toISOString(),
  };
}

/** Headers of a delivery; the signature covers "<timestamp>.<body>" (replay protection). */
export function webhookHeaders(
  d: DeliveryRow,
  event: EventRow,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': VERSION_HEADER_VALUE,
    'x-engram-event': event.kind,
    'x-engram-delivery': d.id,
    'x-webhook-timestamp': String(timestamp),
  };
  if (d.secret) {
    headers['x-webhook-secret'] = d.secret;
    headers['x-webhook-signature'] = signWebhook(d.secret, timestamp, body);
  }
  return headers;
}

class DeliveryError extends Error {}

/**
 * `webhook.deliver`: POST one triggered delivery. A 2xx is delivered; anything else (status,
 * timeout, refused connection) is recorded and thrown, so the queue retries with backoff until
 * the delivery's attempts run out, and the last attempt records the delivery failed. Redirects
 * are not followed: they could lead to an address the URL guard would refuse.
 */
export function webhookJobs(settings: WebhookSettings): Record<string, JobHandler> {
  return {
    [WEBHOOK_DELIVER]: {
      async run(job, ctx) {
        const d = await getDelivery(ctx.db, String(job.payload.delivery_id));
        if (!d || d.status !== 'pending' || !d.event_id) return;
        const event = await getEvent(ctx.db, d.event_id);
        if (!event) return;
        const outcome = ctx.lastAttempt ? 'failed' : 'pending';
        let statusCode: number | null = null;
        try {
          // Checked again: a name may point somewhere else than when it was registered.
          await checkWebhookUrl(d.url, settings.allowPrivate);
          const body = JSON.stringify(webhookBody(d, event, d.attempts + 1));
          const res = await fetch(d.url, {
            method: 'POST',
            body,
            headers: webhookHeaders(d, event, body),
            redirect: 'manual',
            signal: AbortSignal.timeout(settings.timeoutMs),
          });
          statusCode = res.status;
          await res.body?.cancel().catch(() => {});
          if (res.status < 200 || res.status > 299) throw new DeliveryError(`receiver answered HTTP ${res.status}`);
        } catch (err) {
          const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
          await recordAttempt(ctx.db, d.id, { statusCode, error: message, outcome });
          throw err instanceof DeliveryError ? err : new DeliveryError(`delivery failed: ${message}`);
        }
        await recordAttempt(ctx.db, d.id, { statusCode, error: null, outcome: 'delivered' });
      },
      async onDead(job, error, ctx) {
        await failDelivery(ctx.db, String(job.payload.delivery_id), error.split('\n')[0].slice(0, 1000));
      },
    },
  };
}
