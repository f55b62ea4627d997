import type { Db } from '../../platform/db/index.ts';
import { requireApiKey, requirePermission, type Actor } from '../../shared/actor.ts';
import { newId } from '../../shared/ids.ts';
import type { TrackEventsBody } from './telemetry.schemas.ts';
import { countEvents, insertEvents } from './telemetry.store.ts';

export interface TelemetryDeps {
  db: Db;
  /** TELEMETRY_ENABLED: false answers every request and stores nothing. */
  enabled: boolean;
}

/** Telemetry events from clients (client `telemetry.trackEvent`; docs/telemetry.md). */
export function createTelemetryService({ db, enabled }: TelemetryDeps) {
  return {
    /**
     * POST /v1/telemetry/events: stored under the credential's organization, namespace, key and
     * user (whatever the body says), all of a request's events in one statement.
     */
    async track(actor: Actor, body: TrackEventsBody) {
      requirePermission(actor, 'write');
      const received = body.events.length;
      if (!enabled) {
        return {
          success: true,
          events_received: received,
          events_processed: 0,
          message: 'Telemetry is disabled on this server (TELEMETRY_ENABLED=false); nothing was stored',
        };
      }
      const now = Date.now();
      const processed = await insertEvents(
        db,
        {
          organizationId: actor.organizationId,
          namespaceId: actor.namespaceId,
          apiKeyId: actor.apiKeyId,
          userId: actor.userId || null,
        },
        body.anonymous_id ?? null,
        body.events.map((e) => ({
          id: newId(),
          eventName: e.event_name,
          properties: e.properties ?? {},
          clientUserId: e.user_id ?? null,
          occurredAt: new Date(e.timestamp ?? now),
        })),
      );
      return {
        success: true,
        events_received: received,
        events_processed: processed,
        message: `${processed} of ${received} events stored`,
      };
    },

    /**
     * GET /v1/telemetry/summary: counts per UTC day and event name, for the application's key
     * (an end user's token does not see its organization's analytics); a namespace key, its own.
     */
    async summary(actor: Actor, q: { days: number; event_name?: string }) {
      requirePermission(actor, 'read');
      requireApiKey(actor, 'read telemetry counts');
      const data = await countEvents(
        db,
        { organizationId: actor.organizationId, namespaceId: actor.namespaceId },
        q.days,
        q.event_name,
      );
      return {
        code: 200,
        status: 'success',
        error: null,
        telemetry_enabled: enabled,
        data,
        total: data.reduce((n, r) => n + r.count, 0),
      };
    },
  };
}

export type TelemetryService = ReturnType<typeof createTelemetryService>;
