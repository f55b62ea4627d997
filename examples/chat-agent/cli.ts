/**
 * Run the chat-agent example against a running Engram:
 *
 *   ENGRAM_API_KEY=... ENGRAM_URL=http://127.0.0.1:8080 npx tsx examples/chat-agent/cli.ts
 */
import { run } from './chat-agent.ts';

const apiKey = process.env.ENGRAM_API_KEY;
if (!apiKey) {
  console.error('Set ENGRAM_API_KEY to an API key of your Engram server.');
  process.exit(2);
}
await run({ baseURL: process.env.ENGRAM_URL ?? 'http://127.0.0.1:8080', apiKey });
