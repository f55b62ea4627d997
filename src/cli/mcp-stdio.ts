/**
 * `engram-mcp` (and later `engram mcp`): Engram's MCP tools over stdio for a local agent
 * (Claude Desktop, Cursor, VS Code), run against an Engram server by URL with the caller's
 * credential (ENGRAM_URL, ENGRAM_API_KEY or ENGRAM_TOKEN). The tools are the HTTP transport's
 * (src/modules/mcp), over a fetch executor; upload_document reads local files, so only here.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { EngramHttpError, engramRequest, type EngramTarget } from '../client/http.ts';
import { createEngramMcpServer, type Executor } from '../modules/mcp/index.ts';

/** The bridge's own version (not importing app.ts keeps the server's code out of this process). */
const BRIDGE_VERSION = '0.1.0';

/** An executor over HTTP: a non-2xx answer is returned with its envelope, not thrown. */
export function fetchExecutor(target: EngramTarget): Executor {
  return async (method, path, opts = {}) => {
    try {
      return { status: 200, body: await engramRequest(target, method, path, opts) };
    } catch (err) {
      if (err instanceof EngramHttpError) return { status: err.status, body: err.body };
      throw err;
    }
  };
}

/** Serve MCP on this process's stdin/stdout until the client closes it. Logs go to stderr only. */
export async function runMcpStdio(target: EngramTarget): Promise<McpServer> {
  if (!target.apiKey && !target.bearer) {
    console.error('[engram-mcp] no credential: set ENGRAM_API_KEY (or ENGRAM_TOKEN); every tool call will be a 401');
  }
  const server = createEngramMcpServer(fetchExecutor(target), { localFiles: true, version: BRIDGE_VERSION });
  await server.connect(new StdioServerTransport());
  return server;
}
