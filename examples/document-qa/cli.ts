/**
 * Run the document-qa example against a running Engram:
 *
 *   ENGRAM_API_KEY=... ENGRAM_URL=http://127.0.0.1:8080 npx tsx examples/document-qa/cli.ts [file.md] [question...]
 */
import { run } from './document-qa.ts';

const apiKey = process.env.ENGRAM_API_KEY;
if (!apiKey) {
  console.error('Set ENGRAM_API_KEY to an API key of your Engram server.');
  process.exit(2);
}
const [file, ...questions] = process.argv.slice(2);
await run({
  baseURL: process.env.ENGRAM_URL ?? 'http://127.0.0.1:8080',
  apiKey,
  file,
  questions: questions.length ? questions : undefined,
});
