import { z } from 'zod';

/** Current-user record (spec 2.11). */
export const meResponse = z
  .object({
    user_id: z.string().describe('Internal id of the acting user'),
    sessionToken: z.string().optional().describe('The session token, when the caller authenticated with one'),
    imageUrl: z.string().optional(),
    displayName: z.string().optional(),
    email: z.string().optional(),
    message: z.string().describe('Authentication status'),
  })
  .describe('Current user');
