import { z } from 'zod';
import { deletionReceipt } from '../../platform/http/schemas.ts';

const str = () => z.string().max(512);
const flag = z
  .enum(['true', 'false', 'True', 'False', '1', '0'])
  .transform((v) => v === 'true' || v === 'True' || v === '1');

/**
 * The text parts of POST /v1/document (multipart/form-data), as strings. The JSON-encoded parts
 * (`policy`, `memory_policy`, `metadata`, `property_overrides`, `graph_override`) are parsed by
 * the service, which names the part in a 422 when one is malformed.
 */
export const uploadFields = z
  .object({
    external_user_id: str().optional().describe('The user the document’s memories belong to (your id for them)'),
    user_id: str().optional().describe('The user by internal id (wins over external_user_id)'),
    namespace_id: str().optional(),
    organization_id: str().optional(),
    schema_id: str().optional().describe('Graph schema for every chunk (memory_policy.schema_id)'),
    webhook_url: z.string().max(2048).optional().describe('Called once when the document completes or fails'),
    webhook_secret: z.string().max(512).optional(),
    preferred_provider: z
      .enum(['auto', 'gemini', 'tensorlake', 'reducto', 'paddleocr'])
      .optional()
      .describe('auto (default): the local parsers and OCR; the hosted providers need an adapter (422 without)'),
    hierarchical_enabled: flag
      .optional()
      .describe('true (default): chunks follow the headings; false: paragraphs packed across them'),
    enable_holographic: flag.optional().describe('Deprecated; accepted and ignored'),
    frequency_schema_id: str().optional().describe('Deprecated; accepted and ignored'),
    policy: z.string().max(100_000).optional().describe('JSON: the memory add policy of every chunk'),
    memory_policy: z.string().max(100_000).optional().describe('JSON: the memory_policy of every chunk'),
    metadata: z.string().max(100_000).optional().describe('JSON object: metadata of every chunk'),
    property_overrides: z.string().max(100_000).optional().describe('JSON array: graph property overrides'),
    graph_override: z
      .string()
      .max(100_000)
      .optional()
      .describe('JSON: graph_generation of every chunk (deprecated form)'),
  })
  .strict();
export type UploadFields = z.infer<typeof uploadFields>;

/** The whole form as OpenAPI shows it: the `file` part and the text parts (read by upload-form.ts). */
export const uploadForm = uploadFields.extend({
  file: z.string().meta({ format: 'binary' }).describe('The document: a binary part with its filename'),
});

export const statusTypes = ['queued', 'processing', 'completed', 'failed', 'cancelled', 'not_found'] as const;

const documentStatus = z.object({
  progress: z.number().describe('0..1'),
  upload_id: z.string().nullable(),
  page_id: z.string().nullable(),
  current_page: z.number().int().nullable(),
  total_pages: z.number().int().nullable(),
  current_filename: z.string().nullable(),
  error: z.string().nullable(),
  status_type: z.enum(statusTypes),
});

export const uploadResponse = z.object({
  code: z.number().int(),
  status: z.literal('success'),
  message: z.string(),
  document_status: documentStatus,
  memory_items: z.array(z.unknown()).describe('The chunks’ memories: empty at upload, see the status for progress'),
  memories: z.array(z.unknown()).describe('Old name of memory_items'),
  error: z.null(),
  details: z.unknown().optional(),
});

export const uploadParams = z.object({ upload_id: z.string().min(1).max(128) });

export const statusQuery = z.object({
  timeline: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional()
    .describe('true: the steps with their times and progress'),
});

const step = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed', 'skipped']),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  progress: z.number().nullable(),
  page_id: z.string().nullable(),
  error: z.string().nullable(),
  total_pages: z.number().int().nullable(),
});

export const statusResponse = z.object({
  upload_id: z.string(),
  status: z.enum(statusTypes),
  progress: z.number().describe('0..1 over the whole pipeline'),
  current_page: z.number().int().nullable().describe('Pages parsed and stored so far'),
  total_pages: z.number().int().nullable(),
  page_id: z.string().nullable(),
  message: z.string(),
  error: z.string().nullable(),
  timestamp: z.string(),
  workflow_type: z.string().describe('local (the parsers and OCR of this server)'),
  filename: z.string(),
  format: z.string(),
  chunks: z.object({ total: z.number().int().nullable(), stored: z.number().int(), refused: z.number().int() }),
  memories: z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int() }),
  skipped_pages: z
    .array(z.object({ page: z.number().int(), reason: z.string() }))
    .describe('Pages left out, and why (e.g. ocr_disabled)'),
  ocr_pages: z.array(z.number().int()).describe('Pages whose text came from OCR'),
  timeline: z.object({ steps: z.array(step), total_elapsed_ms: z.number().int(), updated_at: z.string() }).optional(),
});

export const cancelQuery = z.object({
  delete_memories: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional()
    .describe('true: also delete the memories already made from the document; false (default): keep them'),
});

export const cancelResponse = z.object({
  code: z.number().int(),
  status: z.literal('success'),
  upload_id: z.string(),
  document_status: z.enum(statusTypes),
  message: z.string(),
  memories_deleted: z.number().int(),
  deleted: deletionReceipt,
});
