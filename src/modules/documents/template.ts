/**
 * The memory fields every chunk of a document shares, from the upload's text parts. The
 * JSON-encoded parts are parsed here, so a malformed one is a 422 naming that part; the result
 * is checked against the memory write's own schema (the same rules as POST /v1/memory).
 */
import { unprocessable } from '../../shared/errors.ts';
import { addMemoryBody, type AddMemoryBody } from '../memories/index.ts';
import type { UploadFields } from './documents.schemas.ts';

type Json = 'object' | 'array';

function jsonPart(fields: UploadFields, part: keyof UploadFields, shape: Json): unknown {
  const raw = fields[part];
  if (raw === undefined || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(String(raw));
  } catch (err) {
    throw unprocessable(`Form part ${part} is not valid JSON: ${(err as Error).message}`, { field: part });
  }
  if (value === null) return undefined;
  const ok = shape === 'array' ? Array.isArray(value) : typeof value === 'object' && !Array.isArray(value);
  if (!ok) throw unprocessable(`Form part ${part} must be a JSON ${shape}`, { field: part });
  return value;
}

/** The chunks' shared memory body (without `content`), validated. */
export function chunkTemplate(fields: UploadFields): Omit<AddMemoryBody, 'content'> {
  const memoryPolicy = jsonPart(fields, 'memory_policy', 'object') as Record<string, unknown> | undefined;
  const overrides = jsonPart(fields, 'property_overrides', 'array');
  const graphOverride = jsonPart(fields, 'graph_override', 'object') as Record<string, unknown> | undefined;
  const body: Record<string, unknown> = {
    content: 'x', // checked with the rest; each chunk brings its own
    type: 'document',
    user_id: fields.user_id,
    external_user_id: fields.external_user_id,
    namespace_id: fields.namespace_id,
    organization_id: fields.organization_id,
    metadata: jsonPart(fields, 'metadata', 'object'),
    policy: jsonPart(fields, 'policy', 'object'),
  };
  if (memoryPolicy || fields.schema_id)
    body.memory_policy = { ...memoryPolicy, ...(fields.schema_id ? { schema_id: fields.schema_id } : {}) };
  // property_overrides ride on the (deprecated) graph_generation form, which names its schema itself.
  if (graphOverride || overrides) {
    const auto = (graphOverride?.auto ?? {}) as Record<string, unknown>;
    body.graph_generation = overrides
      ? {
          mode: 'auto',
          ...graphOverride,
          auto: {
            ...auto,
            property_overrides: overrides,
            ...(fields.schema_id ? { schema_id: fields.schema_id } : {}),
          },
        }
      : graphOverride;
  }
  const parsed = addMemoryBody.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
    throw unprocessable(`Invalid ${issues[0].field}: ${issues[0].message}`, { issues });
  }
  const { content: _content, ...template } = parsed.data;
  return template;
}
