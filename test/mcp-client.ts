/** The SDK's own MCP client as the MCP tests use it: a tool call, its text, a client of /mcp. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The text parts of a tool result, one per line. */
export const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** Call a tool by name. */
export const callTool = async (c: Client, name: string, args: Record<string, unknown>) =>
  (await c.callTool({ name, arguments: args })) as CallToolResult;

/** A client connected to a streamable-HTTP endpoint with these headers; `opened` collects it for closing. */
export async function connectHttp(url: URL, headers: Record<string, string>, opened: Client[]): Promise<Client> {
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  opened.push(client);
  return client;
}
