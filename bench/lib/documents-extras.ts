/**
 * The extras of bench/documents.ts, on one more server: resident memory while a long PDF is
 * parsed and stored, and OCR of one scanned page, twice (a fresh engine per document thread).
 */
import fs from 'node:fs';
import { sleep } from '../../test/wait.ts';
import { memoryApi } from './client.ts';
import { documentsApi, step } from './documents-api.ts';
import { makeHtml, makeLongPdf, makeScannedPdf } from './make-documents.ts';
import { rssMb } from './proc-stats.ts';
import { loadAbstracts, wordRecall, type Abstract } from './scifact.ts';
import { withFreshServer } from './server.ts';

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** Peak resident memory (VmHWM) of `pid` so far, in MB. */
const hwmMb = (pid: number) =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const mb = (x: number) => `${x.toFixed(0)} MB`;

/** Memory while a long PDF is parsed, and OCR of one scanned page, twice: one more server. */
export async function extrasPath(o: {
  pgBase: string | undefined;
  serverEnv: Record<string, string>;
  abstracts: Abstract[];
  longPages: number;
  extras: string[];
  timeoutMs: number;
  k: number;
}) {
  const { abstracts } = o;
  const long = await makeLongPdf(o.longPages, loadAbstracts());
  const page = abstracts.find((a) => a.text.length >= 1000 && a.text.length <= 1500) ?? abstracts[0];
  const scanned = await makeScannedPdf(page);
  return withFreshServer(
    o.pgBase,
    async (server, key) => {
      const docs = documentsApi(server, key, o.timeoutMs);
      const pid = server.proc.pid!;
      const out: { long?: Record<string, string>; ocr?: Record<string, string>; errors: string[] } = { errors: [] };
      // A small document first: the embedder and the parsers are loaded before the idle reading.
      await docs.wait([await docs.upload(makeHtml('warm-up', abstracts.slice(0, 5)), 'warm-up')]);
      await sleep(2000);
      const [idle, hwmBefore] = [rssMb(pid), hwmMb(pid)];
      if (o.extras.includes('rss')) {
        const at = { parsed: false, stored: false, parsePeak: idle, storePeak: idle };
        const timer = setInterval(() => {
          const r = rssMb(pid);
          if (!at.parsed) at.parsePeak = Math.max(at.parsePeak, r);
          if (!at.stored) at.storePeak = Math.max(at.storePeak, r);
        }, 100);
        const [s] = await docs.wait([await docs.upload(long, 'long')], (st) => {
          at.parsed ||= step(st, 'parsed')?.status === 'completed';
          at.stored ||= step(st, 'embedded')?.status === 'completed';
        });
        clearInterval(timer);
        if (s.status !== 'completed') out.errors.push(`long PDF ${s.status}: ${s.error}`);
        const parseMs = step(s, 'parsed')?.duration_ms ?? NaN;
        out.long = {
          'long PDF': `${s.total_pages} pages, ${(long.bytes.length / 2 ** 20).toFixed(2)} MB`,
          chunks: String(s.chunks.stored),
          parse: `${secs(parseMs)} (${((s.total_pages ?? NaN) / (parseMs / 1000)).toFixed(0)} pages/s)`,
          'RSS idle': mb(idle),
          'peak while parsing': mb(at.parsePeak),
          'peak until stored': mb(at.storePeak),
          'VmHWM before → after': `${mb(hwmBefore)} → ${mb(hwmMb(pid))}`,
        };
      }
      if (o.extras.includes('ocr')) {
        const ms: number[] = [];
        for (const user of ['ocr-1', 'ocr-2']) {
          const [s] = await docs.wait([await docs.upload(scanned, user)]);
          if (s.status !== 'completed' || s.ocr_pages.length !== 1)
            out.errors.push(`scanned page (${user}) ${s.status}, ocr_pages ${JSON.stringify(s.ocr_pages)}: ${s.error}`);
          ms.push(step(s, 'parsed')?.duration_ms ?? NaN);
        }
        const found = await memoryApi(server.url, key).search({ query: page.title, external_user_id: 'ocr-2' }, o.k);
        out.ocr = {
          'scanned page (OCR)': '1 A4 page, 300 DPI',
          'parse, first upload': secs(ms[0]),
          'parse, second upload': secs(ms[1]),
          'words of the page in its chunks': `${(
            100 *
            wordRecall(
              page,
              found.map((m) => m.content),
            )
          ).toFixed(1)} %`,
        };
      }
      return out;
    },
    o.serverEnv,
  );
}
