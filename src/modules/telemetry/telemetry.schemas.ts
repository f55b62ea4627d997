import { z } from 'zod';

/** Most events one request may carry. */
export const MAX_EVENTS = 100;
/** Most top-level keys, and bytes of JSON, of one event's properties. */
export const MAX_PROPERTY_KEYS = 64;
export const MAX_PROPERTY_BYTES = 8_192;
/** Latest accepted event time: a day ahead of the server's clock (clocks drift; years ahead is junk). */
const FUTURE_SLACK_MS = 86_400_000;

const properties = z
  .record(z.string().max(128), z.unknown())
  .refine((p) => Object.keys(p).length <= MAX_PROPERTY_KEYS, { message: `at most ${MAX_PROPERTY_KEYS} properties` })
  .refine((p) => Buffer.byteLength(JSON.stringify(p)) <= MAX_PROPERTY_BYTES, {
    message: `properties are at most ${MAX_PROPERTY_BYTES} bytes of JSON`,
  })
  .describe(`Event properties (at most ${MAX_PROPERTY_KEYS} keys and ${MAX_PROPERTY_BYTES} bytes of JSON)`);

const event = z.object({
  event_name: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .describe('Event name, e.g. memory_created, search_performed (1–128 characters)'),
  properties: properties.optional(),
  user_id: z.string().max(256).optional().describe('The sender’s own (hashed) user id; stored as given, not ours'),
  timestamp: z
    .number()
    .int()
    .min(0)
    .refine((t) => t <= Date.now() + FUTURE_SLACK_MS, { message: 'timestamp is more than a day in the future' })
    .optional()
    .describe('When it happened, Unix epoch milliseconds (default: when received)'),
});

/** POST /v1/telemetry/events (client `telemetry.trackEvent`). */
export const trackEventsBody = z.object({
  events: z.array(event).max(MAX_EVENTS).describe(`The events, at most ${MAX_EVENTS}`),
  anonymous_id: z.string().max(256).optional().describe('The sender’s anonymous session id (stored as given)'),
});
export type TrackEventsBody = z.infer<typeof trackEventsBody>;

export const trackEventsResponse = z.object({
  success: z.boolean().describe('true: the request was handled (also when telemetry is disabled)'),
  events_received: z.number().int().describe('Events in the request'),
  events_processed: z.number().int().describe('Events stored (0 when telemetry is disabled)'),
  message: z.string().describe('What happened, in words'),
});

export const summaryQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30).describe('Days back from today (UTC), 1–366'),
  event_name: z.string().max(128).optional().describe('Only this event'),
});

export const summaryResponse = z.object({
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success'),
  error: z.null().describe('null'),
  telemetry_enabled: z.boolean().describe('Whether this server stores telemetry (TELEMETRY_ENABLED)'),
  data: z
    .array(
      z.object({
        day: z.string().describe('UTC day of the events’ time, YYYY-MM-DD'),
        event_name: z.string().describe('Event name'),
        count: z.number().int().describe('Events of that name on that day'),
      }),
    )
    .describe('Counts per day and event name, newest day first'),
  total: z.number().int().describe('Events counted'),
});
