import { z } from 'zod';

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
