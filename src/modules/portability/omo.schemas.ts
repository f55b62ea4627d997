import { z } from 'zod';

/** Most memories one export or import names (one request). */
export const OMO_MAX_ITEMS = 1000;
/** Longest id an export request names (ids are generated; anything longer is not one). */
const ID_MAX = 200;

const OMO_TYPES = ['text', 'image', 'audio', 'video', 'file', 'code'] as const;
const CONSENT = ['explicit', 'implicit', 'terms', 'none'] as const;
const RISK = ['none', 'sensitive', 'flagged'] as const;

/**
 * One Open Memory Object (OMO v1, https://github.com/papr-ai/open-memory-object), as import
 * reads it: the standard's fields, checked item by item (a bad item is that item's error);
 * `ext` holds everything else, under vendor prefixes (`engram:…`; docs/omo.md).
 */
export const omoObject = z.looseObject({
  id: z.string().min(1).max(512).describe('The memory’s id where it was exported (kept as metadata.omo_id)'),
  createdAt: z
    .string()
    .max(64)
    .refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date-time')
    .describe('ISO 8601 time the memory was created'),
  type: z
    .enum(OMO_TYPES)
    .default('text')
    .describe(
      'text, image, audio, video, file or code (stored as text, document, document, document, document, code_snippet)',
    ),
  content: z
    .string()
    .min(1, 'content must not be empty')
    .describe('The memory’s text (at most MAX_CONTENT_BYTES bytes)'),
  consent: z.enum(CONSENT).default('implicit').describe('explicit, implicit (default), terms or none'),
  risk: z.enum(RISK).default('none').describe('none (default), sensitive or flagged'),
  topics: z.array(z.string().max(512)).max(100).optional().describe('Topic labels (metadata.topics)'),
  sourceUrl: z.string().max(2048).optional().describe('Where the memory came from (metadata.sourceUrl)'),
  acl: z
    .object({
      read: z.array(z.string().max(512)).max(200).optional().describe('prefix:id entries that may read it'),
      write: z.array(z.string().max(512)).max(200).optional().describe('prefix:id entries that may change it'),
    })
    .optional()
    .describe('Who may read and change it; entries naming the exporting organization are mapped (docs/omo.md)'),
  ext: z
    .record(z.string().max(200), z.unknown())
    .optional()
    .describe('Vendor extensions: engram:metadata, engram:external_user_id, engram:namespace_id, engram:graph …'),
});
export type OmoInput = z.infer<typeof omoObject>;

/** An exported OMO, as the responses describe it. */
export const omoOutput = z
  .object({
    id: z.string().describe('Memory id'),
    createdAt: z.string().describe('ISO 8601 time it was stored'),
    type: z.enum(OMO_TYPES).describe('text, code (code_snippet) or file (document)'),
    content: z.string().describe('The remembered text'),
    consent: z.enum(CONSENT).describe('Consent behind it'),
    risk: z.enum(RISK).describe('Risk of the content'),
    topics: z.array(z.string()).describe('metadata.topics'),
    sourceUrl: z.string().optional().describe('metadata.sourceUrl, when it has one'),
    acl: z
      .object({
        read: z.array(z.string()).describe('Read list (prefix:id)'),
        write: z.array(z.string()).describe('Write list (prefix:id)'),
      })
      .describe('Who may read and change it'),
    ext: z.record(z.string(), z.unknown()).describe('engram:* extensions: everything else Engram keeps (docs/omo.md)'),
  })
  .describe('An Open Memory Object (OMO v1)');

export const exportBody = z.object({
  memory_ids: z
    .array(z.string().min(1).max(ID_MAX))
    .min(1)
    .max(OMO_MAX_ITEMS)
    .describe(`Ids of the memories to export (1 to ${OMO_MAX_ITEMS})`),
});

export const exportJsonQuery = z.object({
  memory_ids: z
    .string()
    .max(OMO_MAX_ITEMS * (ID_MAX + 1))
    .describe(`Comma-separated memory ids (at most ${OMO_MAX_ITEMS}, and as many as fit in a URL)`),
});

export const exportResponse = z.object({
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success'),
  count: z.number().int().describe('How many memories were exported'),
  memories: z.array(omoOutput).describe('The memories found, in the order asked for'),
  not_found: z
    .array(z.string())
    .describe('Ids asked for that are not found or not readable with this credential (another tenant’s included)'),
  error: z.string().nullable().describe('null'),
});

export const importBody = z.object({
  memories: z
    .array(z.unknown())
    .min(1)
    .max(OMO_MAX_ITEMS)
    .describe(`OMO v1 objects (1 to ${OMO_MAX_ITEMS}); each is checked on its own and a bad one is reported in errors`),
  skip_duplicates: z
    .boolean()
    .default(true)
    .describe(
      'Skip an object already imported (its id, or its engram metadata omo_id, is a memory here or an imported ' +
        "memory's omo_id) or whose content the same owner already has. Default true",
    ),
  external_user_id: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe('Import every memory for this user of your application (wins over each object’s own owner)'),
  user_id: z
    .string()
    .max(512)
    .optional()
    .describe('Deprecated: the same by internal user id; wins over external_user_id'),
  namespace_id: z
    .string()
    .max(512)
    .optional()
    .describe('Import every memory into this namespace (wins over each object’s own namespace)'),
  organization_id: z
    .string()
    .max(512)
    .optional()
    .describe('Deprecated: the organization is the credential’s; naming another one is a 422'),
});
export type ImportBody = z.infer<typeof importBody>;

export const importResponse = z.object({
  code: z.number().int().describe('200 all imported or skipped, 207 some failed, 422 every one failed'),
  status: z.enum(['success', 'partial', 'error']).describe('success, partial or error'),
  imported: z.number().int().describe('How many memories were stored'),
  skipped: z.number().int().describe('How many objects were duplicates (skip_duplicates)'),
  memory_ids: z.array(z.string()).describe('Ids of the memories stored, in object order'),
  results: z
    .array(
      z.object({
        index: z.number().int().describe('Position of the object in memories'),
        omo_id: z.string().nullable().describe('The object’s id (null when it had none)'),
        status: z.enum(['imported', 'skipped', 'error']).describe('What happened to it'),
        memory_id: z.string().optional().describe('imported: the new memory; skipped: the memory it duplicates'),
      }),
    )
    .describe('One entry per object, in order'),
  errors: z
    .array(
      z.object({
        index: z.number().int().describe('Position of the object in memories'),
        omo_id: z.string().nullable().describe('The object’s id (null when it had none)'),
        error: z.string().describe('Why it was not imported'),
        code: z.number().int().describe('HTTP status the object alone would have had'),
        details: z.unknown().optional().describe('Validation issues or other details'),
      }),
    )
    .describe('One entry per object not imported, in order'),
  error: z.string().nullable().describe('How many failed; null when none did'),
  details: z.null().describe('null (the failures are in errors)'),
});
