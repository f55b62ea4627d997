import type { FastifyPluginAsync } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { credentialHeaders, injectExecutor } from './mcp.executor.ts';
import { createEngramMcpServer } from './mcp.server.ts';

/**
 * POST /mcp: MCP over streamable HTTP, stateless (a server and a transport per request, JSON
 * answers, no session id). The app's auth hook runs first, so a request without a valid
 * credential is a 401 envelope; each tool call is then a request into this server's own routes
 * with the caller's credential headers. GET and DELETE (a stream or session a stateless server
 * does not keep) are the app's 405 envelope, which MCP clients accept.
 */
export function mcpRoutes(version: string): FastifyPluginAsync {
  return async (app) => {
    app.post('/mcp', { schema: { hide: true } }, async (req, reply) => {
      const exec = injectExecutor(req.server, credentialHeaders(req.headers));
      const server = createEngramMcpServer(exec, { localFiles: false, version });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.setHeader('x-request-id', req.id);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    });
  };
}
