#!/usr/bin/env node
/**
 * `engram-mcp`: Engram's MCP tools over stdio for a local agent, against a server by URL
 * (ENGRAM_URL, ENGRAM_API_KEY or ENGRAM_TOKEN; docs/mcp.md). Runs the compiled bridge
 * (dist/mcp-main.js), building dist/ first when src/ changed, like `npm start`. Nothing but
 * the protocol may reach stdout.
 */
import { ensureBuilt } from '../scripts/build.mjs';

ensureBuilt();
await import('../dist/mcp-main.js');
