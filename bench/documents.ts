/**
 * Documents (issue #19) on SciFact: do abstracts uploaded as documents retrieve as well as the same
 * abstracts stored as plain memories, and what do parsing, OCR and a long PDF cost?
 *
 *   memories       every abstract one memory (`${title}\n\n${text}`, POST /v1/memory/batch), processed;
 *   pdf/docx/html  the abstracts in documents of 50 (title a heading, text a paragraph; the HTML with
 *                  navigation and a footer around its <article>), all uploaded (POST /v1/document),
 *                  then waited on until `completed` (chunks stored, their memories processed).
 * Each path runs on a fresh server and store. The 150 SciFact dev claims are searched as the path's
 * user (max_memories 10). A hit is an abstract by its doc_id (memories) or by the heading in the
 * chunk's `section_path` (a duplicate title settled by the text); repeats keep the first rank;
 * nDCG@10, binary relevance. The issue asks |Δ| ≤ 0.01. "by content" maps chunks by their text
 * instead, which tells retrieval apart from the metadata. Parse speed: Σ pages or bytes / Σ of the
 * timeline's `parsed` step (one job's view, with up to WORKER_CONCURRENCY parses and the embedder
 * sharing the cores; the long PDF below is one parse alone); wall times run from the first POST to
 * the last upload's step, as the timelines record it.
 * Then one more server (OCR=local): a warm-up upload; the idle RSS; a PDF of DOCS_LONG_PAGES (300)
 * pages with VmRSS sampled every 100 ms until parsed and until stored; and a scanned page (an
 * abstract drawn into a 300 DPI PNG, no text layer) uploaded twice (the parse thread of each upload
 * starts its own tesseract, so the second is as cold as the first unless that changes).
 *
 *   npm run bench:documents          (2,000 abstracts: the 157 the dev claims need + 1,843 others; ~7 min)
 *   DOCS_LIMIT=0 npm run bench:documents                  (the whole corpus, 5,183 abstracts; ~25 min)
 * The default is the subset because the whole corpus takes ~25 minutes on 2 cores (four stores of
 * 5–6k memories each, every one embedded and processed).
 *   DOCS_LIMIT=300 DOCS_FORMATS=html DOCS_EXTRAS= npm run bench:documents                 (quick check)
 *
 * Env: DOCS_STORE (postgres, or pglite), BENCH_DATABASE_URL (the PostgreSQL server for throwaway
 * databases; default the local test server), DOCS_FORMATS (pdf,docx,html), DOCS_LIMIT (2000),
 * DOCS_PER_DOCUMENT (50), DOCS_UPLOAD (all: every POST at once, as a client with a folder of files;
 * serial: each after the previous one is parsed, so no two parse at once), DOCS_EXTRAS (ocr,rss;
 * empty skips the last server), DOCS_LONG_PAGES (300), DOCS_TIMEOUT_MS (per wait, 30 min).
 */
import type { Server } from '../test/process.ts';
import { MODELS_CACHE } from '../test/harness.ts';
import { memoryApi, type AddMemory, type MemoryObject } from './lib/client.ts';
import { BOILERPLATE, makeDocument } from './lib/make-documents.ts';
import type { Format, TestFile } from './lib/make-documents.ts';
import { mapConcurrent } from './lib/pool.ts';
import { AbstractIndex, groupsOf, loadAbstracts, loadDevQueries, ndcgAt, selectAbstracts } from './lib/scifact.ts';
import { documentsApi, FINAL, step, type UploadStatus } from './lib/documents-api.ts';
import { extrasPath } from './lib/documents-extras.ts';
import { withFreshServer } from './lib/server.ts';
import { median } from './stats.ts';

const STORE = process.env.DOCS_STORE || 'postgres';
const PG_BASE =
  STORE === 'pglite' ? undefined : process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const FORMATS = (process.env.DOCS_FORMATS ?? 'pdf,docx,html').split(',').filter(Boolean) as Format[];
const LIMIT = Number(process.env.DOCS_LIMIT ?? 2000);
const PER_DOC = Number(process.env.DOCS_PER_DOCUMENT || 50);
const SERIAL = process.env.DOCS_UPLOAD === 'serial';
const EXTRAS = (process.env.DOCS_EXTRAS ?? 'ocr,rss').split(',').filter(Boolean);
const LONG_PAGES = Number(process.env.DOCS_LONG_PAGES || 300);
const TIMEOUT_MS = Number(process.env.DOCS_TIMEOUT_MS || 30 * 60_000);
const K = 10;
const SERVER_ENV = { MODELS_CACHE_DIR: MODELS_CACHE, OCR: 'local' };

const queries = loadDevQueries();
const abstracts = selectAbstracts(loadAbstracts(), queries, LIMIT);
const index = new AbstractIndex(abstracts);
const groups = groupsOf(abstracts, PER_DOC);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
const mean = (v: number[]) => sum(v) / Math.max(1, v.length);

/** nDCG@10 of every dev claim searched as `user`, hits mapped to abstracts by `idOf`. */
async function evaluate(
  server: Server,
  key: string,
  user: string,
  ...idOf: ((m: MemoryObject) => string | undefined)[]
) {
  const api = memoryApi(server.url, key);
  const hits = await mapConcurrent(queries, 4, (q) => api.search({ query: q.text, external_user_id: user }, K));
  const ndcg = idOf.map((f) => hits.map((h, i) => ndcgAt(h.map(f), queries[i].relevant, K)));
  return { ndcg, hits };
}

// ---- the paths --------------------------------------------------------------------------------------

/** A path's scores per claim (by section, and by content for documents) and its cells in the tables. */
interface PathResult {
  path: string;
  ndcg: number[];
  byContent?: number[];
  ingest: Record<string, string | number>;
  diag?: Record<string, number>;
  failed?: string[];
  /** Claims with a relevant abstract in an upload that did not complete. */
  hurt?: Set<number>;
}

/** The ingest table's cells. */
function ingestCells(o: { files?: number; mb?: number; pages?: number; memories: number; parseMs?: number[] }) {
  const s = o.parseMs ? sum(o.parseMs) / 1000 : undefined;
  const per = (x: number | undefined, d: number) => (s && x !== undefined ? (x / s).toFixed(d) : '—');
  return {
    files: o.files ?? '—',
    MB: o.mb?.toFixed(2) ?? '—',
    pages: o.pages ?? '—',
    memories: o.memories,
    'parse Σ': s ? `${s.toFixed(1)} s` : '—',
    'parse p50': o.parseMs ? secs(median(o.parseMs)) : '—',
    'parse pages/s': per(o.pages, 1),
    'parse MB/s': per(o.mb, 2),
  };
}

const memoriesPath = () =>
  withFreshServer(
    PG_BASE,
    async (server, key): Promise<PathResult> => {
      const api = memoryApi(server.url, key, { process: true });
      const memories: AddMemory[] = abstracts.map((a) => ({
        content: `${a.title}\n\n${a.text}`,
        type: 'text',
        external_user_id: 'scifact',
        metadata: { customMetadata: { doc_id: a.id } },
      }));
      const t0 = performance.now();
      await api.addAll(memories, 2);
      const stored = secs(performance.now() - t0);
      await api.waitProcessed(TIMEOUT_MS);
      const processed = secs(performance.now() - t0);
      const { ndcg } = await evaluate(server, key, 'scifact', (m) => m.metadata?.customMetadata?.doc_id as string);
      const ingest = { ...ingestCells({ memories: memories.length }), 'first POST → all stored': stored };
      return { path: 'memories', ndcg: ndcg[0], ingest: { ...ingest, '→ all processed': processed } };
    },
    SERVER_ENV,
  );

async function formatPath(format: Format): Promise<PathResult> {
  const files: TestFile[] = [];
  for (const [i, g] of groups.entries()) files.push(await makeDocument(format, `scifact-${i + 1}`, g));
  return withFreshServer(
    PG_BASE,
    async (server, key) => {
      const docs = documentsApi(server, key, TIMEOUT_MS);
      const user = `scifact-${format}`;
      const parsed = (s: UploadStatus) => FINAL.has(s.status) || step(s, 'parsed')?.status === 'completed';
      const t0 = Date.now();
      const ids: string[] = [];
      for (const f of files) {
        ids.push(await docs.upload(f, user));
        if (SERIAL) await docs.wait(ids.slice(-1), undefined, parsed);
      }
      console.error(`${format}: ${ids.length} documents uploaded in ${secs(Date.now() - t0)}`);
      const statuses = await docs.wait(ids);
      // The ingest columns are over the uploads that completed: a failed one was retried, and its
      // parse step spans the retries; failures are listed under the tables.
      const ok = statuses.flatMap((s, i) => (s.status === 'completed' ? [{ s, file: files[i] }] : []));
      const latest = (id: string) => secs(Math.max(...ok.map(({ s }) => Date.parse(step(s, id)!.completed_at!) - t0)));
      const bySection = (m: MemoryObject) => index.ofChunk(m.content, m.metadata ?? {}).bySection;
      const { ndcg, hits } = await evaluate(server, key, user, bySection, (m) => index.byContent(m.content));
      const diag: Record<string, number> = {
        ...index.diagnose(hits),
        refused: sum(statuses.map((s) => s.chunks.refused)),
      };
      if (format === 'html') {
        const query = `${BOILERPLATE} Home Browse journals Sign in`; // the footer and the navigation
        const found = await memoryApi(server.url, key).search({ query, external_user_id: user }, K);
        diag.boilerplate = found.filter((m) => /Quokkatronic|Browse journals/.test(m.content)).length;
      }
      const cells = ingestCells({
        files: ok.length,
        mb: sum(ok.map(({ file }) => file.bytes.length)) / 2 ** 20,
        pages: sum(ok.map(({ s }) => s.total_pages ?? 0)),
        memories: sum(ok.map(({ s }) => s.chunks.stored)),
        parseMs: ok.map(({ s }) => step(s, 'parsed')!.duration_ms!),
      });
      return {
        path: format,
        ndcg: ndcg[0],
        byContent: ndcg[1],
        ingest: { ...cells, 'first POST → all stored': latest('embedded'), '→ all processed': latest('completed') },
        diag,
        failed: statuses.filter((s) => s.status !== 'completed').map((s) => `${s.status}: ${s.error}`),
        hurt: new Set(
          queries.flatMap((q, qi) =>
            statuses.some((s, i) => s.status !== 'completed' && groups[i].some((a) => q.relevant.has(a.id)))
              ? [qi]
              : [],
          ),
        ),
      };
    },
    SERVER_ENV,
  );
}

// ---- the run and the report -------------------------------------------------------------------------

const started = performance.now();
console.error(`${abstracts.length} abstracts, ${groups.length} documents per format, ${STORE}`);
const results: PathResult[] = [await memoriesPath()];
for (const f of FORMATS) results.push(await formatPath(f));
const extras = EXTRAS.length
  ? await extrasPath({
      pgBase: PG_BASE,
      serverEnv: SERVER_ENV,
      abstracts,
      longPages: LONG_PAGES,
      extras: EXTRAS,
      timeoutMs: TIMEOUT_MS,
      k: K,
    })
  : undefined;

function table(rows: Record<string, unknown>[]) {
  const keys = Object.keys(rows[0]);
  console.log(`\n| ${keys.join(' | ')} |\n|${keys.map(() => '---|').join('')}`);
  for (const r of rows) console.log(`| ${keys.map((k) => r[k] ?? '—').join(' | ')} |`);
}
const base = mean(results[0].ndcg);
const delta = (x: number) => `${x >= base ? '+' : ''}${(x - base).toFixed(4)}`;
const knobs = Object.keys(process.env).filter((k) => k.startsWith('DOCS_') || k === 'BENCH_DATABASE_URL');
console.log(`\n### Documents on SciFact: ${abstracts.length} abstracts, ${queries.length} dev claims, ${STORE}\n`);
console.log(`\`${[...knobs.map((k) => `${k}=${process.env[k]}`), 'npm run bench:documents'].join(' ')}\``);
console.log(
  `(${secs(performance.now() - started)}; ${PER_DOC} abstracts a document; uploads ${SERIAL ? 'serial' : 'at once'})`,
);
table(results.map((r) => ({ path: r.path, ...r.ingest })));
table(
  results.map((r) => {
    const [m, d, first] = [mean(r.ndcg), r.diag ?? {}, r === results[0]];
    return {
      path: r.path,
      'nDCG@10': m.toFixed(4),
      'Δ vs memories': first ? '—' : delta(m),
      'within 0.01': first ? '—' : Math.abs(m - base) <= 0.01 ? 'yes' : '**no**',
      'by content (Δ)': r.byContent ? `${mean(r.byContent).toFixed(4)} (${delta(mean(r.byContent))})` : '—',
      hits: d.hits,
      unmapped: d.unmapped,
      'section ≠ text': d.mismatch,
      verbatim: d.verbatim,
      'claims with a repeat': d.repeats,
    };
  }),
);
console.log();
for (const r of results) {
  const d = r.diag ?? {};
  if (d.noMetadata) console.log(`- ${r.path}: ${d.noMetadata} hits lack upload_id, page, chunk_index or section_path`);
  if (d.boilerplate !== undefined)
    console.log(`- ${r.path}: hits with the footer's or the navigation's text, searched for: ${d.boilerplate}`);
  if (d.refused) console.log(`- ${r.path}: ${d.refused} chunks refused by the memory write`);
  const failures = new Map<string, number>();
  for (const f of r.failed ?? []) failures.set(f, (failures.get(f) ?? 0) + 1);
  for (const [f, k] of failures) console.log(`- **${r.path}: ${k} upload(s) not completed**: ${f}`);
  if (r.hurt?.size) {
    // The same comparison without the claims those uploads took answers from: what the parser costs.
    const rest = (v: number[]) => mean(v.filter((_, i) => !r.hurt!.has(i)));
    const [m, b] = [rest(r.ndcg), rest(results[0].ndcg)];
    console.log(
      `- ${r.path}: ${r.hurt.size} claims lost a relevant abstract with them; over the other ` +
        `${queries.length - r.hurt.size}: nDCG@10 ${m.toFixed(4)} vs memories ${b.toFixed(4)} (${(m - b).toFixed(4)})`,
    );
  }
}
if (extras?.long) table([extras.long]);
if (extras?.ocr) table([extras.ocr]);
for (const e of extras?.errors ?? []) console.log(`- **${e}**`);
const paths = results.map((r) => ({
  ...r,
  ndcg: mean(r.ndcg),
  byContent: r.byContent && mean(r.byContent),
  hurt: r.hurt && [...r.hurt].map((i) => queries[i].id),
}));
console.log(`\n${JSON.stringify({ bench: 'documents', store: STORE, abstracts: abstracts.length, paths, extras })}`);
