/** The `engram-mcp` entry (bin/engram-mcp.mjs runs its build): MCP over stdio, target from the environment. */
import { targetFromEnv } from '../client/http.ts';
import { runMcpStdio } from './mcp-stdio.ts';

await runMcpStdio(targetFromEnv());
