/**
 * The memory tools: add, search, get, update, delete and list recent memories. Each is one
 * call of the API's own route through the executor (mcp.executor.ts): no rule of the API is
 * repeated here, and an API error is the tool's error.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Executor } from './mcp.executor.ts';
import { callTool, isObject, memoriesOf, memoryLine, seg } from './mcp.results.ts';

const externalUserId = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .describe("Your application's id of the user whose memories these are. Default: the credential's own user");
const namespaceId = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .describe('Namespace id (a namespace key always uses its own)');
const memoryId = z.string().min(1).max(200).describe('The memory id (as add_memory or search_memories gave it)');
const metadata = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('Open metadata, e.g. {"topics": ["travel"], "category": "preference"}');
const memoryType = z.enum(['text', 'code_snippet', 'document']).optional().describe('Kind of content (default text)');

export function registerMemoryTools(server: McpServer, exec: Executor): void {
  server.registerTool(
    'add_memory',
    {
      title: 'Add a memory',
      description:
        'Store something worth remembering (a fact, a preference, a decision). It is embedded and linked into the ' +
        'knowledge graph in the background; search_memories finds it once processed (usually within seconds).',
      inputSchema: {
        content: z.string().min(1).describe('The text to remember'),
        type: memoryType,
        metadata,
        external_user_id: externalUserId,
        namespace_id: namespaceId,
      },
      annotations: { destructiveHint: false, idempotentHint: false },
    },
    async (args) =>
      callTool(exec, 'POST', '/v1/memory', { body: args }, (b) => {
        const item = Array.isArray(b.data) && isObject(b.data[0]) ? b.data[0] : {};
        return `Stored memory ${String(item.memoryId ?? '?')} (processed in the background).`;
      }),
  );

  server.registerTool(
    'search_memories',
    {
      title: 'Search memories',
      description:
        'Find the memories relevant to a question or topic (hybrid search: meaning, keywords and the knowledge ' +
        'graph), best first. Filter by user, namespace or metadata (every given key must match).',
      inputSchema: {
        query: z.string().min(1).max(10000).describe('What to look for, in natural language'),
        external_user_id: externalUserId,
        namespace_id: namespaceId,
        metadata: z.record(z.string(), z.unknown()).optional().describe('Filter: every given metadata key must match'),
        max_memories: z.number().int().min(1).max(200).optional().describe('Most memories returned (default 10)'),
        enable_agentic_graph: z.boolean().optional().describe('Also match the question’s entities in the graph'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ max_memories, ...body }) =>
      callTool(exec, 'POST', '/v1/memory/search', { query: { max_memories: max_memories ?? 10 }, body }, (b) => {
        const found = memoriesOf(b);
        return found.length
          ? `${found.length} memories found:\n${found.map(memoryLine).join('\n')}`
          : 'No memories found.';
      }),
  );

  server.registerTool(
    'get_memory',
    {
      title: 'Get a memory',
      description: 'Read one memory by id: its content, metadata, owner and processing status.',
      inputSchema: { memory_id: memoryId },
      annotations: { readOnlyHint: true },
    },
    async ({ memory_id }) =>
      callTool(exec, 'GET', `/v1/memory/${seg(memory_id)}`, {}, (b) => memoriesOf(b).map(memoryLine).join('\n')),
  );

  server.registerTool(
    'update_memory',
    {
      title: 'Update a memory',
      description:
        'Change a memory: new content (re-embedded), metadata merged into the stored metadata, or its type. ' +
        'Absent fields stay as they are.',
      inputSchema: {
        memory_id: memoryId,
        content: z.string().min(1).optional().describe('The new text'),
        metadata,
        type: memoryType,
      },
      annotations: { idempotentHint: true },
    },
    async ({ memory_id, ...body }) =>
      callTool(exec, 'PUT', `/v1/memory/${seg(memory_id)}`, { body }, () => `Updated memory ${memory_id}.`),
  );

  server.registerTool(
    'delete_memory',
    {
      title: 'Delete a memory',
      description: 'Delete one memory by id (with its chunks and graph links). This cannot be undone.',
      inputSchema: { memory_id: memoryId },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    async ({ memory_id }) =>
      callTool(exec, 'DELETE', `/v1/memory/${seg(memory_id)}`, {}, () => `Deleted memory ${memory_id}.`),
  );

  server.registerTool(
    'list_recent_memories',
    {
      title: 'List recent memories',
      description:
        'The newest memories first: a user’s (external_user_id) or all the credential may read. Pass next_cursor ' +
        'as cursor for the next page.',
      inputSchema: {
        external_user_id: externalUserId,
        namespace_id: namespaceId,
        limit: z.number().int().min(1).max(200).optional().describe('Memories per page (default 20)'),
        cursor: z.string().max(512).optional().describe('next_cursor of the previous page'),
      },
      annotations: { readOnlyHint: true },
    },
    async (query) =>
      callTool(exec, 'GET', '/v1/memory', { query }, (b) => {
        const page = memoriesOf(b);
        const more = typeof b.next_cursor === 'string' ? `\nMore: cursor=${b.next_cursor}` : '';
        return page.length
          ? `${page.length} memories, newest first:\n${page.map(memoryLine).join('\n')}${more}`
          : 'No memories.';
      }),
  );
}

export { externalUserId, namespaceId, metadata };
