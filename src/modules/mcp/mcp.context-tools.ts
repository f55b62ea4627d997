/**
 * The conversation and knowledge tools: add_message, get_session_context, graph_lookup, and
 * (stdio only: it reads the caller's own disk) upload_document.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Executor } from './mcp.executor.ts';
import { apiError, callTool, isObject, send, seg, toolError } from './mcp.results.ts';
import { externalUserId, metadata, namespaceId } from './mcp.tools.ts';

const sessionId = z.string().min(1).max(256).describe('The conversation’s session id (created by its first message)');

// Within GraphQL's cost limit (graphql.cost.ts): 200 nodes and 300 relationships, few fields.
const GRAPH_QUERY = `query($u: String, $n: ID) {
  graph(externalUserId: $u, namespaceId: $n, maxNodes: 200, maxRelationships: 300) {
    nodes { id label name }
    relationships { type source { id name } target { id name } }
  }
}`;

interface Node {
  id: string;
  label: string;
  name: string | null;
}
interface Relationship {
  type: string;
  source: Pick<Node, 'id' | 'name'>;
  target: Pick<Node, 'id' | 'name'>;
}

/** An entity's nodes (name match, case-insensitive; exact names first) and their relationships. */
async function graphLookup(exec: Executor, args: { entity: string; external_user_id?: string; namespace_id?: string }) {
  const r = await send(exec, 'POST', '/v1/graphql', {
    body: { query: GRAPH_QUERY, variables: { u: args.external_user_id, n: args.namespace_id } },
  });
  if (r.status !== 200) return apiError(r);
  const body = isObject(r.body) ? r.body : {};
  const errors = Array.isArray(body.errors) ? (body.errors as { message?: string }[]) : [];
  if (errors.length) return toolError(`Engram API error: ${errors.map((e) => e.message).join('; ')}`);
  const graph = (isObject(body.data) && isObject(body.data.graph) ? body.data.graph : {}) as {
    nodes?: Node[];
    relationships?: Relationship[];
  };
  const wanted = args.entity.trim().toLowerCase();
  const named = (graph.nodes ?? []).filter((n) => (n.name ?? '').toLowerCase().includes(wanted));
  const nodes = [...named].sort(
    (a, b) => Number(b.name?.toLowerCase() === wanted) - Number(a.name?.toLowerCase() === wanted),
  );
  const ids = new Set(nodes.map((n) => n.id));
  const relationships = (graph.relationships ?? []).filter((e) => ids.has(e.source.id) || ids.has(e.target.id));
  if (!nodes.length) {
    return {
      content: [{ type: 'text', text: `No entity named "${args.entity}" in the graph.` }],
      structuredContent: { nodes, relationships },
    } satisfies CallToolResult;
  }
  const lines = [
    ...nodes.map((n) => `${n.label}: ${n.name ?? n.id}`),
    ...relationships.map((e) => `${e.source.name ?? e.source.id} -[${e.type}]-> ${e.target.name ?? e.target.id}`),
  ];
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { nodes, relationships },
  } satisfies CallToolResult;
}

/** Read a local file and upload it as POST /v1/document's multipart form. */
async function uploadDocument(
  exec: Executor,
  args: { path: string; external_user_id?: string; namespace_id?: string; metadata?: Record<string, unknown> },
) {
  let bytes: Buffer;
  try {
    bytes = await readFile(args.path);
  } catch (err) {
    return toolError(`cannot read ${args.path}: ${(err as Error).message}`);
  }
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), path.basename(args.path));
  if (args.external_user_id) form.append('external_user_id', args.external_user_id);
  if (args.namespace_id) form.append('namespace_id', args.namespace_id);
  if (args.metadata) form.append('metadata', JSON.stringify(args.metadata));
  return callTool(exec, 'POST', '/v1/document', { body: form }, (b) => {
    const status = isObject(b.document_status) ? b.document_status : {};
    const upload = `upload ${String(status.upload_id ?? '?')}, ${String(status.status_type ?? 'queued')}`;
    return `Uploaded ${path.basename(args.path)}: ${upload} (processed in the background).`;
  });
}

export function registerContextTools(server: McpServer, exec: Executor, opts: { localFiles: boolean }): void {
  server.registerTool(
    'add_message',
    {
      title: 'Add a chat message',
      description:
        'Store one message of a conversation in its session (the session is created by its first message). ' +
        'By default the message also becomes a memory in the background.',
      inputSchema: {
        session_id: sessionId,
        role: z.enum(['user', 'assistant']).describe('Who wrote it'),
        content: z.string().min(1).describe('The message text'),
        title: z.string().max(500).optional().describe('The session’s title'),
        external_user_id: externalUserId,
        namespace_id: namespaceId,
        metadata,
        process_messages: z.boolean().optional().describe('false: store only, no memory (default true)'),
      },
    },
    async (body) =>
      callTool(
        exec,
        'POST',
        '/v1/messages',
        { body },
        (b) => `Stored message ${String(b.objectId ?? '?')} in session ${String(b.sessionId ?? body.session_id)}.`,
      ),
  );

  server.registerTool(
    'get_session_context',
    {
      title: 'Get a session’s context',
      description:
        'The compressed context of a conversation: its summaries and latest messages, ready to put in a prompt ' +
        '(context_for_llm). compress=true returns the hierarchical summaries instead (short, medium, long term).',
      inputSchema: {
        session_id: sessionId,
        compress: z.boolean().optional().describe('true: the hierarchical summaries (GET …/compress)'),
        limit: z.number().int().min(1).max(1000).optional().describe('Latest messages read (default 50)'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ session_id, compress, limit }) =>
      compress
        ? callTool(exec, 'GET', `/v1/messages/sessions/${seg(session_id)}/compress`, {}, (b) =>
            JSON.stringify(b.summaries ?? b, null, 1),
          )
        : callTool(exec, 'GET', `/v1/messages/sessions/${seg(session_id)}`, { query: { limit } }, (b) =>
            typeof b.context_for_llm === 'string' && b.context_for_llm
              ? b.context_for_llm
              : 'The session has no context yet.',
          ),
  );

  server.registerTool(
    'graph_lookup',
    {
      title: 'Look up an entity in the knowledge graph',
      description:
        'An entity (person, organization, place, topic …) of the knowledge graph built from the memories: its ' +
        'nodes (name match, case-insensitive) and their relationships. Reads the graph of the user’s 200 most ' +
        'recent memories (their 200 most linked entities).',
      inputSchema: {
        entity: z.string().min(1).max(500).describe('The entity’s name, e.g. "Alice" or "Acme"'),
        external_user_id: externalUserId,
        namespace_id: namespaceId,
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => graphLookup(exec, args),
  );

  if (!opts.localFiles) return;
  server.registerTool(
    'upload_document',
    {
      title: 'Upload a document',
      description:
        'Upload a local file (PDF, DOCX, HTML, Markdown, text) by its path: it is split into chunks that become ' +
        'memories in the background.',
      inputSchema: {
        path: z.string().min(1).describe('Path of the file on this machine'),
        external_user_id: externalUserId,
        namespace_id: namespaceId,
        metadata,
      },
    },
    async (args) => uploadDocument(exec, args),
  );
}
