/** The documents API of a bench server (bench/documents.ts): upload a file, read its status, wait for uploads. */
import type { Server } from '../../test/process.ts';
import { sleep } from '../../test/wait.ts';
import type { TestFile } from './make-documents.ts';

export interface UploadStatus {
  upload_id: string;
  status: string;
  total_pages: number | null;
  error: string | null;
  chunks: { total: number | null; stored: number; refused: number };
  ocr_pages: number[];
  timeline: { steps: { id: string; status: string; completed_at: string | null; duration_ms: number | null }[] };
}
export const step = (s: UploadStatus, id: string) => s.timeline.steps.find((x) => x.id === id);
export const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** The documents API as a client calls it; `wait` gives up after `timeoutMs`. */
export function documentsApi(server: Server, key: string, timeoutMs: number) {
  const headers = { 'X-API-Key': key };
  async function upload(file: TestFile, user: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
    form.append('external_user_id', user);
    const res = await fetch(`${server.url}/v1/document`, { method: 'POST', headers, body: form });
    const text = await res.text();
    if (!res.ok) throw new Error(`POST /v1/document (${file.name}) answered ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text).document_status.upload_id;
  }
  async function status(id: string): Promise<UploadStatus> {
    const res = await fetch(`${server.url}/v1/document/status/${id}?timeline=true`, { headers });
    if (!res.ok) throw new Error(`GET /v1/document/status/${id} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as UploadStatus;
  }
  /**
   * Poll until `done` holds for every upload (default: a final status). Jobs start in upload order,
   * so a round stops at the first upload not done; the times reported come from the timelines.
   */
  async function wait(
    ids: string[],
    onStatus?: (s: UploadStatus) => void,
    done = (s: UploadStatus) => FINAL.has(s.status),
  ) {
    const final = new Map<string, UploadStatus>();
    const start = Date.now();
    for (let said = start; ; await sleep(200)) {
      let last: UploadStatus | undefined;
      for (const id of ids.filter((i) => !final.has(i))) {
        last = await status(id);
        onStatus?.(last);
        if (!done(last)) break;
        final.set(id, last);
      }
      if (final.size === ids.length) return ids.map((id) => final.get(id)!);
      if (Date.now() - start > timeoutMs) throw new Error(`uploads not done in time, e.g. ${JSON.stringify(last)}`);
      if (Date.now() - said > 15_000) {
        said = Date.now();
        console.error(
          `  ${final.size} of ${ids.length} uploads done; next ${last?.status} ${JSON.stringify(last?.chunks)}`,
        );
      }
    }
  }
  return { upload, wait };
}
