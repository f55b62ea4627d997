/**
 * The import formats, each read into AddMemory items (content, metadata, and the owner when the
 * source names one): JSONL, CSV, a Markdown folder, an OMO file and a mem0 export. A file is
 * read whole: imports of a few hundred thousand items fit in memory, and a stable item order
 * is what the checkpoint counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseCsv } from './csv.ts';

export type ImportFormat = 'jsonl' | 'csv' | 'markdown' | 'omo' | 'mem0';
export const FORMATS: ImportFormat[] = ['jsonl', 'csv', 'markdown', 'omo', 'mem0'];
export type Item = Record<string, unknown> & { metadata?: Record<string, unknown> };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A mem0 memory ({id, memory, user_id, metadata, created_at, …}) as an AddMemory item. */
export function fromMem0(m: Record<string, unknown>): Item {
  const metadata: Record<string, unknown> = isObject(m.metadata) ? { ...m.metadata } : {};
  if (m.id !== undefined) metadata.mem0_id = String(m.id);
  for (const k of ['created_at', 'updated_at', 'agent_id', 'run_id', 'app_id', 'categories', 'hash'] as const)
    if (m[k] !== undefined && m[k] !== null) metadata[`mem0_${k}`] = m[k];
  const item: Item = { content: String(m.memory ?? ''), metadata };
  if (typeof m.user_id === 'string' && m.user_id) item.external_user_id = m.user_id;
  return item;
}

/** mem0's export: {"results": [...]} or a plain list. */
function mem0List(doc: unknown): Record<string, unknown>[] | null {
  const list = isObject(doc) && Array.isArray(doc.results) ? doc.results : Array.isArray(doc) ? doc : null;
  return list && list.every(isObject) ? list : null;
}

const looksOmo = (o: Record<string, unknown>) => 'ext' in o || ('consent' in o && 'createdAt' in o);

/** The format a path's name and first bytes suggest. */
export function detectFormat(file: string): ImportFormat {
  if (fs.statSync(file).isDirectory()) return 'markdown';
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  if (ext === '.json') {
    const doc: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    const list: unknown[] | null = isObject(doc) && Array.isArray(doc.memories) ? doc.memories : mem0List(doc);
    const first: unknown = list?.[0];
    if (isObject(first) && looksOmo(first)) return 'omo';
    if (isObject(first) && 'memory' in first && !('content' in first)) return 'mem0';
    return 'jsonl';
  }
  throw new Error(`cannot tell the format of ${file}: name it with --format (${FORMATS.join(', ')})`);
}

function readJsonl(file: string): Item[] {
  const text = fs.readFileSync(file, 'utf8');
  // A .json file given as jsonl: one array of memory objects.
  if (/^\s*[[{]/.test(text) && path.extname(file).toLowerCase() === '.json') {
    const doc: unknown = JSON.parse(text);
    const list = isObject(doc) && Array.isArray(doc.memories) ? doc.memories : doc;
    if (!Array.isArray(list)) throw new Error(`${file}: expected a list of memory objects`);
    return list.map((o, i) => toItem(o, `${file}[${i}]`));
  }
  return text
    .split('\n')
    .map((l, n) => ({ l: l.trim(), n }))
    .filter(({ l }) => l !== '')
    .map(({ l, n }) => {
      let o: unknown;
      try {
        o = JSON.parse(l);
      } catch {
        throw new Error(`${file}:${n + 1}: not a JSON object`);
      }
      return toItem(o, `${file}:${n + 1}`);
    });
}

/** One JSON object as an item: a memory object as it is, a mem0 record mapped. */
function toItem(o: unknown, where: string): Item {
  if (!isObject(o)) throw new Error(`${where}: not a JSON object`);
  if (!('content' in o) && 'memory' in o) return fromMem0(o);
  return { ...o, metadata: isObject(o.metadata) ? { ...o.metadata } : {} };
}

/** CSV: the content column (--content-column, default "content") and every other column into metadata. */
function readCsv(file: string, contentColumn: string): Item[] {
  const [header, ...rows] = parseCsv(fs.readFileSync(file, 'utf8'));
  if (!header) return [];
  const at = header.indexOf(contentColumn);
  if (at < 0) throw new Error(`${file}: no "${contentColumn}" column (columns: ${header.join(', ')})`);
  return rows.map((r) => {
    const metadata: Record<string, unknown> = {};
    header.forEach((h, i) => {
      if (i !== at && h && r[i] !== undefined && r[i] !== '') metadata[h] = r[i];
    });
    return { content: r[at] ?? '', metadata };
  });
}

/** Markdown: one memory per file, or per heading section with `byHeading`; files in name order. */
function readMarkdown(dir: string, byHeading: boolean): Item[] {
  const files = fs.statSync(dir).isDirectory()
    ? (fs.readdirSync(dir, { recursive: true }) as string[])
        .filter((f) => /\.(md|markdown)$/i.test(f))
        .sort()
        .map((f) => ({ rel: f, abs: path.join(dir, f) }))
    : [{ rel: path.basename(dir), abs: dir }];
  const items: Item[] = [];
  for (const { rel, abs } of files) {
    const text = fs.readFileSync(abs, 'utf8');
    if (!byHeading) {
      if (text.trim()) items.push({ content: text.trim(), metadata: { source_file: rel } });
      continue;
    }
    // A section runs from one heading to the next; text before the first heading is a section of its own.
    let heading = '';
    let lines: string[] = [];
    const flush = () => {
      const content = lines.join('\n').trim();
      if (content) items.push({ content, metadata: heading ? { source_file: rel, heading } : { source_file: rel } });
    };
    for (const l of text.split('\n')) {
      const h = /^#{1,6}\s+(.*)$/.exec(l);
      if (h) {
        flush();
        heading = h[1].trim();
        lines = [l];
      } else lines.push(l);
    }
    flush();
  }
  return items;
}

/** OMO objects: a JSON list, {"memories": [...]}, or JSONL. Sent as they are to POST /v1/omo/import. */
function readOmo(file: string): Item[] {
  const text = fs.readFileSync(file, 'utf8');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    // not one JSON document: JSONL, one object per line
    return text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Item);
  }
  const list: unknown[] = isObject(doc) && Array.isArray(doc.memories) ? doc.memories : [doc].flat();
  return list.filter(isObject);
}

function readMem0(file: string): Item[] {
  const list = mem0List(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!list) throw new Error(`${file}: not a mem0 export ({"results": [...]} or a list of memories)`);
  return list.map(fromMem0);
}

export interface ReadOptions {
  contentColumn?: string;
  byHeading?: boolean;
}

export function readItems(file: string, format: ImportFormat, o: ReadOptions = {}): Item[] {
  switch (format) {
    case 'jsonl':
      return readJsonl(file);
    case 'csv':
      return readCsv(file, o.contentColumn ?? 'content');
    case 'markdown':
      return readMarkdown(file, !!o.byHeading);
    case 'omo':
      return readOmo(file);
    case 'mem0':
      return readMem0(file);
  }
}
