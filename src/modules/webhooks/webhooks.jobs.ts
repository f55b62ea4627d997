import { request, type Agent } from 'undici';
import type { JobHandler } from '../../platform/jobs/index.ts';
import { getEvent, type EventRow } from '../../platform/events/index.ts';
import { VERSION_HEADER_VALUE, WEBHOOK_DELIVER, type WebhookSettings } from './webhooks.service.ts';
import { signWebhook } from './signature.ts';
import { blockedCause, createDeliveryAgent } from './delivery-agent.ts';
import { systemResolve } from './url-guard.ts';
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

class DeliveryError extends Error {
  /** A refused address: the job is dead at once (the worker does not retry a permanent error). */
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

/**
 * `webhook.deliver`: POST one triggered delivery. A 2xx is delivered; anything else (status,
 * timeout, refused connection) is recorded and thrown, so the queue retries with backoff until
 * the delivery's attempts run out, and the last attempt records the delivery failed. A host
 * that is, or resolves at connect time to, a non-public address is refused by the dispatcher
 * (delivery-agent.ts) and the delivery fails at once, not retried. Redirects are not followed:
 * they could lead anywhere.
 */
export function webhookJobs(settings: WebhookSettings): Record<string, JobHandler> {
  // One dispatcher for every delivery (its connections are reused), made on first use.
  let agent: Agent | undefined;
  const dispatcher = () =>
    (agent ??= createDeliveryAgent({
      allowPrivate: settings.allowPrivate,
      resolve: settings.resolve ?? systemResolve,
      connectTimeoutMs: settings.timeoutMs,
    }));
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
          const body = JSON.stringify(webhookBody(d, event, d.attempts + 1));
          const res = await request(d.url, {
            method: 'POST',
            body,
            headers: webhookHeaders(d, event, body),
            dispatcher: dispatcher(),
            signal: AbortSignal.timeout(settings.timeoutMs),
          });
          statusCode = res.statusCode;
          await res.body.dump().catch(() => {});
          if (statusCode < 200 || statusCode > 299) throw new DeliveryError(`receiver answered HTTP ${statusCode}`);
        } catch (err) {
          const blocked = blockedCause(err);
          const cause = blocked ?? err;
          const message = (cause instanceof Error ? cause.message : String(cause)).slice(0, 1000);
          // Waiting would not make the address public, and each retry would resolve the name again.
          await recordAttempt(ctx.db, d.id, { statusCode, error: message, outcome: blocked ? 'failed' : outcome });
          if (blocked) throw new DeliveryError(message, true);
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
