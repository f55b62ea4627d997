/**
 * One MCP server with Engram's tools, resource template and prompt over a given executor: the
 * same definitions for the HTTP transport (/mcp, inject into this server) and for stdio (fetch
 * to a server by URL).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerContextTools } from './mcp.context-tools.ts';
import type { Executor } from './mcp.executor.ts';
import { registerPrompts } from './mcp.prompts.ts';
import { registerMemoryTools } from './mcp.tools.ts';

export interface EngramMcpOptions {
  /** Tools that read the caller's own files (upload_document): stdio only. */
  localFiles: boolean;
  version: string;
}

export function createEngramMcpServer(exec: Executor, opts: EngramMcpOptions): McpServer {
  const server = new McpServer(
    { name: 'engram', title: 'Engram memory', version: opts.version },
    {
      instructions:
        'Engram is a long-term memory. search_memories before answering questions about the user or past work; ' +
        'add_memory for facts, preferences and decisions worth keeping.',
    },
  );
  registerMemoryTools(server, exec);
  registerContextTools(server, exec, { localFiles: opts.localFiles });
  registerPrompts(server, exec);
  return server;
}
