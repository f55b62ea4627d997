import { z } from 'zod';

/** The spec's error envelope (§7): HTTP status equals `code`. */
export const errorEnvelope = z
  .object({
    code: z.number().int(),
    status: z.literal('error'),
    error: z.string(),
    details: z.record(z.string(), z.unknown()).nullable(),
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
