import { z } from 'zod';
import { memoryStatusParams } from './status.schemas.ts';

export const historyParams = memoryStatusParams;

const version = z.object({
  version: z.number().int().describe('1 for the first content; the current version has the highest number'),
  current: z.boolean().describe('true for what the memory says now'),
  content: z.string().describe('What the memory said'),
  type: z.string().describe('Its type then'),
  metadata: z.record(z.string(), z.unknown()).describe('Its metadata then'),
  context: z
    .array(z.object({ role: z.string().describe('user or assistant'), content: z.string().describe('What was said') }))
    .nullable()
    .describe('Its context then'),
  valid_from: z.string().describe('ISO 8601: when this version was written'),
  valid_to: z.string().nullable().describe('ISO 8601: when a PUT replaced it; null for the current version'),
});

const link = z.object({
  relation: z
    .enum(['superseded_by', 'supersedes', 'duplicate_of', 'duplicated_by'])
    .describe('How the other memory relates to this one'),
  memory_id: z.string().describe('The other memory (GET /v1/memory/{id} reads it, if you may)'),
  valid_to: z.string().nullable().describe('Supersession: when the older fact stopped being true'),
  reason: z
    .string()
    .describe(
      'explicit (the write named it), fact:<slot> (detected: a new value of that fact), llm (the LLM update ' +
        'decider, MEMORY_UPDATE_DECIDER=llm), near-duplicate, exact',
    ),
  created_at: z.string().describe('ISO 8601: when the link was made'),
});

export const historyResponse = z.object({
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success'),
  data: z
    .object({
      memory_id: z.string().describe('The memory'),
      superseded_by: z.string().nullable().describe('The newer memory that replaced this fact; null while current'),
      valid_to: z.string().nullable().describe('When this fact stopped being true; null while current'),
      versions: z.array(version).describe('What the memory said, newest first (PUT keeps the earlier ones)'),
      links: z.array(link).describe('Supersession and duplicate links, newest first'),
    })
    .describe('The memory’s versions and links'),
});
