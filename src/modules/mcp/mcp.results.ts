/**
 * From an API answer to an MCP tool result: concise text for the model, the answer's JSON as
 * structuredContent, and an API error (the envelope's message) as a tool error (isError) —
 * never a thrown error, so a bad call is something the model reads and corrects.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiRequest, ApiResult, Executor } from './mcp.executor.ts';

type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The message of an error envelope (`error`), or of another JSON error body, else the status. */
export function errorMessage(r: ApiResult): string {
  const b = r.body;
  if (isObject(b)) for (const m of [b.error, b.message, b.detail]) if (typeof m === 'string' && m) return m;
  if (typeof b === 'string' && b && b.length < 500) return b;
  return 'request failed';
}

export function toolError(text: string, details?: Json): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], ...(details ? { structuredContent: details } : {}) };
}

export function apiError(r: ApiResult): CallToolResult {
  const details = isObject(r.body) ? r.body : { status: r.status };
  // Status 0: no answer at all (send below), so no status to show.
  return toolError(r.status ? `Engram API error ${r.status}: ${errorMessage(r)}` : errorMessage(r), details);
}

/** Run one API call; an unreachable server is a tool error too. */
export async function send(exec: Executor, method: string, path: string, opts?: ApiRequest): Promise<ApiResult> {
  try {
    return await exec(method, path, opts);
  } catch (err) {
    return { status: 0, body: { error: `cannot reach the Engram server: ${(err as Error).message}` } };
  }
}

/** One API call as a tool result: `render` makes the text of a success. */
export async function callTool(
  exec: Executor,
  method: string,
  path: string,
  opts: ApiRequest,
  render: (body: Json) => string,
): Promise<CallToolResult> {
  const r = await send(exec, method, path, opts);
  if (r.status < 200 || r.status >= 300) return apiError(r);
  const body = isObject(r.body) ? r.body : { result: r.body };
  return { content: [{ type: 'text', text: render(body) }], structuredContent: body };
}

/** A memory as one line: its id and (shortened) content. */
export function memoryLine(m: unknown): string {
  if (!isObject(m)) return String(m);
  const content = typeof m.content === 'string' ? m.content : '';
  const short = content.length > 500 ? `${content.slice(0, 497)}...` : content;
  const score = typeof m.similarity_score === 'number' ? ` (score ${m.similarity_score.toFixed(3)})` : '';
  return `- [${String(m.id ?? m.memoryId ?? '?')}]${score} ${short}`;
}

/** `data.memories` of an API answer (search, listing, get), or []. */
export function memoriesOf(body: Json): unknown[] {
  const data = body.data;
  if (isObject(data) && Array.isArray(data.memories)) return data.memories;
  if (Array.isArray(data)) return data;
  return [];
}

/** A path segment from a caller's id. */
export const seg = (id: string) => encodeURIComponent(id);
