/**
 * The resource template of a user's recent memories and the `remember_context` prompt. They
 * read through the executor like the tools; an API error is a JSON-RPC error here (resources
 * and prompts have no isError result).
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Executor } from './mcp.executor.ts';
import { errorMessage, memoriesOf, memoryLine, send } from './mcp.results.ts';

export const MEMORIES_TEMPLATE = 'engram://users/{external_user_id}/memories';

async function read(exec: Executor, method: string, path: string, opts: Parameters<Executor>[2]) {
  const r = await send(exec, method, path, opts);
  if (r.status < 200 || r.status >= 300) throw new Error(`Engram API error ${r.status}: ${errorMessage(r)}`);
  return r.body as Record<string, unknown>;
}

export function registerPrompts(server: McpServer, exec: Executor): void {
  server.registerResource(
    'user_memories',
    new ResourceTemplate(MEMORIES_TEMPLATE, { list: undefined }),
    {
      title: 'A user’s recent memories',
      description: 'The 20 newest memories of a user (your application’s id for the user), as JSON',
      mimeType: 'application/json',
    },
    async (uri, vars) => {
      const user = String(Array.isArray(vars.external_user_id) ? vars.external_user_id[0] : vars.external_user_id);
      const body = await read(exec, 'GET', '/v1/memory', {
        query: { external_user_id: decodeURIComponent(user), limit: 20 },
      });
      return {
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(memoriesOf(body), null, 1) }],
      };
    },
  );

  server.registerPrompt(
    'remember_context',
    {
      title: 'Answer with memories',
      description: 'A question with the memories relevant to it put before it (search_memories, best 10)',
      argsSchema: {
        question: z.string().min(1).describe('The question to answer'),
        external_user_id: z.string().optional().describe('Whose memories (default: the credential’s own user)'),
      },
    },
    async ({ question, external_user_id }) => {
      const body = await read(exec, 'POST', '/v1/memory/search', {
        query: { max_memories: 10 },
        body: { query: question, external_user_id },
      });
      const found = memoriesOf(body);
      const memories = found.length ? found.map(memoryLine).join('\n') : '(no relevant memories)';
      return {
        description: `Memories relevant to: ${question}`,
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text:
                `Relevant memories from Engram (best first):\n${memories}\n\n` +
                `Use them where they help, and say so when they do not answer it.\n\nQuestion: ${question}`,
            },
          },
        ],
      };
    },
  );
}
