/**
 * Questions over a document through the official client, `@papr/memory`, pointed at Engram:
 * upload a markdown file, wait until the server has split it into memories, then ask
 * questions with memory search. README.md beside this file; `cli.ts` runs it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Papr, { toFile } from '@papr/memory';

export interface DocumentQaOptions {
  baseURL: string;
  apiKey: string;
  /** Whose document this is (`external_user_id`). */
  user?: string;
  /** The document to upload (default: handbook.md beside this file). */
  file?: string;
  questions?: string[];
  log?: (line: string) => void;
  timeoutMs?: number;
}

export interface DocumentQaResult {
  uploadId: string;
  status: string;
  answers: { question: string; answer: string | null }[];
}

const HANDBOOK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'handbook.md');
const QUESTIONS = ['How long is the frame warranty?', 'How long does the battery take to charge?'];

export async function run(options: DocumentQaOptions): Promise<DocumentQaResult> {
  const { baseURL, apiKey, user = 'reader', file = HANDBOOK, questions = QUESTIONS } = options;
  const { log = console.log, timeoutMs = 120_000 } = options;
  const client = new Papr({ xAPIKey: apiKey, baseURL });

  // 1. Upload: the server answers at once with an upload id and processes the file in the background.
  const upload = await client.document.upload({
    file: await toFile(await readFile(file), path.basename(file), { type: 'text/markdown' }),
    external_user_id: user,
  });
  const uploadId = upload.document_status.upload_id;
  if (!uploadId) throw new Error(`no upload id in ${JSON.stringify(upload)}`);
  log(`uploaded ${path.basename(file)}: ${uploadId} (${upload.document_status.status_type})`);

  // 2. Wait until it is parsed, split into sections and stored as memories.
  const deadline = Date.now() + timeoutMs;
  let status = await client.document.getStatus(uploadId);
  while (status.status !== 'completed' && status.status !== 'failed' && status.status !== 'cancelled') {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${uploadId} (${status.status})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    status = await client.document.getStatus(uploadId);
  }
  log(`processing ${status.status}`);
  if (status.status !== 'completed') throw new Error(`document ${status.status}: ${status.error ?? ''}`);

  // 3. Ask: the best-matching section of the document is the answer to show (or to give an LLM).
  const answers: DocumentQaResult['answers'] = [];
  for (const question of questions) {
    const found = await client.memory.search({ query: question, external_user_id: user, max_memories: 3 });
    const answer = found.data?.memories?.[0]?.content ?? null;
    log(`Q: ${question}\nA: ${answer ?? '(nothing found)'}`);
    answers.push({ question, answer });
  }
  return { uploadId, status: status.status, answers };
}
