/**
 * The MCP server (docs/mcp.md): Engram's tools, resource template and prompt, served over
 * streamable HTTP at /mcp (createMcpModule) and, by src/cli/mcp-stdio.ts, over stdio against a
 * server by URL. The tools run through an executor, so both transports call the API's routes.
 */
import { mcpRoutes } from './mcp.routes.ts';

export function createMcpModule(deps: { version: string }) {
  return { routes: mcpRoutes(deps.version) };
}

export { createEngramMcpServer, type EngramMcpOptions } from './mcp.server.ts';
export type { ApiRequest, ApiResult, Executor } from './mcp.executor.ts';
export { MEMORIES_TEMPLATE } from './mcp.prompts.ts';
