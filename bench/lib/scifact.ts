/**
 * SciFact (BEIR layout, /work/shared/data/scifact) for the documents benchmark: the abstracts,
 * the dev claims and their qrels; the subset a run uses; nDCG@10; and the map from a search hit
 * back to an abstract's id, for plain memories (their doc_id) and for document chunks (the
 * heading the chunker put in `section`, which is the abstract's title).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadQrelQueries } from './beir.ts';

export const SCIFACT_DIR = process.env.SCIFACT_DIR || '/work/shared/data/scifact';

export interface Abstract {
  id: string;
  title: string;
  text: string;
}

export interface Query {
  id: string;
  text: string;
  /** Ids of the relevant abstracts (binary relevance). */
  relevant: Set<string>;
}

const jsonl = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

/** The corpus in file order. */
export function loadAbstracts(dir = SCIFACT_DIR): Abstract[] {
  return jsonl<{ _id: string; title: string; text: string }>(path.join(dir, 'corpus.jsonl')).map((d) => ({
    id: d._id,
    title: d.title,
    text: d.text,
  }));
}

/** The claims named in qrels/dev.tsv, with their relevant abstracts. */
export function loadDevQueries(dir = SCIFACT_DIR): Query[] {
  return loadQrelQueries(dir, 'dev');
}

/**
 * The abstracts a run uses, in corpus order: every abstract a dev query needs, plus the first
 * others in file order as distractors up to `limit` (0 = the whole corpus). The relevant ones are
 * always in, even above `limit`, so nDCG is measured against a complete set of answers.
 */
export function selectAbstracts(all: Abstract[], queries: Query[], limit: number): Abstract[] {
  if (!(limit > 0) || limit >= all.length) return all;
  const needed = new Set(queries.flatMap((q) => [...q.relevant]));
  let distractors = Math.max(0, limit - needed.size);
  return all.filter((a) => {
    if (needed.has(a.id)) return true;
    return distractors-- > 0;
  });
}

/** `items` in consecutive groups of `size` (the last may be shorter). */
export function groupsOf<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * nDCG@k with binary relevance: `ranked` ids best first. A repeat of an id is dropped (its first
 * rank counts); an unknown hit (undefined) keeps its rank and gains nothing.
 */
export function ndcgAt(ranked: (string | undefined)[], relevant: Set<string>, k = 10): number {
  const seen = new Set<string>();
  const ids = ranked.filter((id) => id === undefined || (!seen.has(id) && (seen.add(id), true)));
  const gain = (i: number) => 1 / Math.log2(i + 2);
  let dcg = 0;
  ids.slice(0, k).forEach((id, i) => (dcg += id !== undefined && relevant.has(id) ? gain(i) : 0));
  let idcg = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) idcg += gain(i);
  return idcg > 0 ? dcg / idcg : 0;
}

/**
 * Letters and digits only, lower-cased: text from a PDF comes back with its own spacing (line
 * joins, a space lost or gained around a symbol), which must not decide whether two texts match.
 */
export const normalize = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** What {@link AbstractIndex.ofChunk} found for one chunk. */
export interface ChunkMatch {
  /** The abstract the chunk's `section` names (a duplicate title settled by the content). */
  bySection?: string;
  /** The abstract whose text holds the chunk's first words. */
  byContent?: string;
}

/** Looks abstracts up by (normalized) title and by a piece of their text. */
export class AbstractIndex {
  private byTitle = new Map<string, string[]>();
  private texts: { id: string; norm: string; squashed: string }[];

  constructor(abstracts: Abstract[]) {
    for (const a of abstracts) {
      const key = normalize(a.title);
      this.byTitle.set(key, [...(this.byTitle.get(key) ?? []), a.id]);
    }
    this.texts = abstracts.map((a) => ({
      id: a.id,
      norm: normalize(`${a.title} ${a.text}`),
      squashed: squash(`${a.title} ${a.text}`),
    }));
  }

  /** The abstract whose title + text holds the start of `content` (80 letters and digits). */
  byContent(content: string, among?: string[]): string | undefined {
    const probe = normalize(content).slice(0, 80);
    if (probe === '') return undefined;
    const pool = among ? this.texts.filter((t) => among.includes(t.id)) : this.texts;
    return pool.find((t) => t.norm.includes(probe))?.id;
  }

  /** A document chunk: its abstract by the heading in its metadata, and by its content. */
  ofChunk(content: string, metadata: Record<string, unknown>): ChunkMatch {
    const path = Array.isArray(metadata.section_path) ? (metadata.section_path as unknown[]) : [];
    // The innermost heading is the abstract's title (the bench writes no heading above them).
    const heading = typeof path[path.length - 1] === 'string' ? (path[path.length - 1] as string) : undefined;
    const title = heading ?? (typeof metadata.section === 'string' ? metadata.section : undefined);
    const candidates = title === undefined ? [] : (this.byTitle.get(normalize(title)) ?? []);
    const byContent = this.byContent(content);
    const bySection =
      candidates.length <= 1
        ? candidates[0]
        : (candidates.find((id) => id === byContent) ?? this.byContent(content, candidates) ?? candidates[0]);
    return { bySection, byContent };
  }

  /**
   * What the chunks a search returned say about the parser: hits whose section names no abstract
   * (unmapped) or another one than their text (mismatch); hits whose text is not, whitespace aside,
   * a verbatim piece of their abstract; hits without the location metadata; and result lists in which
   * one abstract came back more than once (its long text split into several chunks).
   */
  diagnose(lists: { content: string; metadata?: Record<string, unknown> }[][]): Record<string, number> {
    const d = { hits: 0, unmapped: 0, mismatch: 0, verbatim: 0, noMetadata: 0, repeats: 0 };
    for (const list of lists) {
      const seen = new Set<string>();
      let repeated = false;
      for (const m of list) {
        const meta = m.metadata ?? {};
        const { bySection, byContent } = this.ofChunk(m.content, meta);
        d.hits++;
        if (!bySection) d.unmapped++;
        else if (bySection !== byContent) d.mismatch++;
        if (['upload_id', 'page', 'chunk_index', 'section_path'].some((k) => meta[k] === undefined)) d.noMetadata++;
        const source = this.texts.find((t) => t.id === (byContent ?? bySection));
        if (source?.squashed.includes(squash(m.content))) d.verbatim++;
        if (bySection && seen.has(bySection)) repeated = true;
        if (bySection) seen.add(bySection);
      }
      if (repeated) d.repeats++;
    }
    return d;
  }
}

/** Share of `a`'s words (title and text, case aside) found anywhere in `texts`: what OCR kept. */
export function wordRecall(a: Abstract, texts: string[]): number {
  const words = (s: string) =>
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const got = new Set(texts.flatMap(words));
  const want = words(`${a.title} ${a.text}`);
  return want.filter((w) => got.has(w)).length / Math.max(1, want.length);
}
