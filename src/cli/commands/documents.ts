/** `engram documents upload <files...>`: multipart POST /v1/document per file; --wait follows each to its end. */
import { SingleBar, Presets } from 'cli-progress';
import type { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { engramRequest, type EngramTarget } from '../../client/http.ts';
import { PartialError, emit, isJson, jsonObject, targetOf } from '../context.ts';

interface UploadOptions {
  user?: string;
  namespace?: string;
  metadata?: string;
  wait?: boolean;
  timeout: number;
}
interface Status {
  upload_id: string;
  status: string;
  progress: number;
  error: string | null;
}
const DONE = new Set(['completed', 'failed', 'cancelled', 'not_found']);

async function waitFor(target: EngramTarget, id: string, timeoutS: number, bar: SingleBar | null): Promise<Status> {
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const s = await engramRequest<Status>(target, 'GET', `/v1/document/status/${encodeURIComponent(id)}`);
    bar?.update(Math.round(s.progress * 100), { state: s.status });
    if (DONE.has(s.status)) return s;
    if (Date.now() > deadline) return { ...s, status: 'timeout' };
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function registerDocumentCommands(program: Command): void {
  const docs = program.command('documents').description('Documents (PDF, DOCX, HTML, Markdown, text …)');
  docs
    .command('upload')
    .description('Upload files; each is parsed, chunked and stored as memories in the background')
    .argument('<files...>', 'files to upload')
    .option('--user <id>', 'external_user_id the memories belong to')
    .option('--namespace <id>', 'namespace_id')
    .option('--metadata <json>', 'metadata of every chunk, a JSON object')
    .option('--wait', 'wait until each document is processed (exit 4 if one fails)')
    .option('--timeout <s>', 'with --wait: seconds per file', (v) => Number.parseInt(v, 10), 600)
    .action(async (files: string[], o: UploadOptions, cmd: Command) => {
      const target = { ...targetOf(cmd), timeoutMs: 600_000 };
      const metadata = jsonObject(o.metadata, '--metadata');
      const results: { file: string; upload_id: string; status: string; error: string | null }[] = [];
      for (const file of files) {
        const form = new FormData();
        if (o.user) form.set('external_user_id', o.user);
        if (o.namespace) form.set('namespace_id', o.namespace);
        if (metadata) form.set('metadata', JSON.stringify(metadata));
        form.set('file', new Blob([fs.readFileSync(file)]), path.basename(file));
        const res = await engramRequest<{ document_status: { upload_id: string; status_type: string } }>(
          target,
          'POST',
          '/v1/document',
          { body: form },
        );
        const id = res.document_status.upload_id;
        let s: Status = { upload_id: id, status: res.document_status.status_type, progress: 0, error: null };
        if (o.wait) {
          const bar =
            process.stderr.isTTY && !isJson(cmd)
              ? new SingleBar(
                  { format: ` ${path.basename(file)} {bar} {percentage}% {state}`, stream: process.stderr },
                  Presets.shades_classic,
                )
              : null;
          bar?.start(100, 0, { state: 'queued' });
          s = await waitFor(target, id, o.timeout, bar);
          bar?.stop();
        }
        results.push({ file, upload_id: id, status: s.status, error: s.error });
        if (!isJson(cmd)) process.stdout.write(`${file}: ${id} ${s.status}${s.error ? ` (${s.error})` : ''}\n`);
      }
      if (isJson(cmd)) emit(cmd, { documents: results }, () => '');
      const bad = results.filter((r) => o.wait && r.status !== 'completed');
      if (bad.length) throw new PartialError(`engram: ${bad.length} of ${results.length} documents did not complete`);
    });
}
