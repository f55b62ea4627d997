/**
 * A generic BEIR-layout dataset (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) for the rerank
 * benchmark: the corpus, the queries a qrels file names with their relevant documents, the subset
 * of a smoke run, the memory content of a document, and MRR@k. Used for CoSQA; SciFact has its
 * own loader (scifact.ts) whose shapes these match, so the two corpora go through the same code.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddMemory, MemoryObject } from './client.ts';
import type { Abstract, Query } from './scifact.ts';

/** A corpus document (same shape as a SciFact abstract; CoSQA's titles are empty). */
export type BeirDoc = Abstract;
export type BeirQuery = Query;

const jsonl = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

/** The corpus in file order. */
export function loadCorpus(dir: string): BeirDoc[] {
  return jsonl<{ _id: string; title?: string; text: string }>(path.join(dir, 'corpus.jsonl')).map((d) => ({
    id: String(d._id),
    title: d.title ?? '',
    text: d.text,
  }));
}

/**
 * The queries that `qrels/<split>.tsv` names (positive score only), in qrels order, each with its
 * relevant documents. A qrels line naming a query that queries.jsonl lacks is an error: silently
 * skipping it would shrink the evaluation without anyone noticing.
 */
export function loadQrelQueries(dir: string, split = 'dev'): BeirQuery[] {
  const relevant = new Map<string, Set<string>>();
  const lines = fs.readFileSync(path.join(dir, 'qrels', `${split}.tsv`), 'utf8').split('\n');
  for (const line of lines) {
    const [q, doc, score] = line.trim().split('\t');
    // The header ("query-id corpus-id score") has a non-numeric score and drops out here too.
    if (!q || !doc || !(Number(score) > 0)) continue;
    if (!relevant.has(q)) relevant.set(q, new Set());
    relevant.get(q)!.add(doc);
  }
  const texts = new Map(
    jsonl<{ _id: string; text: string }>(path.join(dir, 'queries.jsonl')).map((q) => [q._id, q.text]),
  );
  return [...relevant].map(([id, rel]) => {
    const text = texts.get(id);
    if (text === undefined) throw new Error(`${split} qrels name query ${id}, which queries.jsonl lacks`);
    return { id, text, relevant: rel };
  });
}

/** The first `limit` queries (0 = all): a smoke run keeps the file order so runs are comparable. */
export const firstQueries = <T>(queries: T[], limit: number): T[] => (limit > 0 ? queries.slice(0, limit) : queries);

/**
 * The documents a run stores, in corpus order: every gold document of `queries`, then others as
 * distractors up to `limit` (0 = the whole corpus). Gold documents are kept even above `limit`,
 * so a smaller corpus never scores a query against a missing answer.
 */
export function selectDocs(all: BeirDoc[], queries: BeirQuery[], limit: number): BeirDoc[] {
  if (!(limit > 0) || limit >= all.length) return all;
  const needed = new Set(queries.flatMap((q) => [...q.relevant]));
  let distractors = Math.max(0, limit - needed.size);
  return all.filter((d) => needed.has(d.id) || distractors-- > 0);
}

/** What a memory stores for a document: title and text as bench/documents.ts does; the text alone without a title. */
export const docContent = (d: BeirDoc) => (d.title ? `${d.title}\n\n${d.text}` : d.text);

/**
 * MRR@k: 1 / rank of the first relevant id within the top k, else 0. Repeats of an id keep their
 * first rank (as ndcgAt does); an unmapped hit (undefined) keeps its rank and is never relevant.
 */
export function mrrAt(ranked: (string | undefined)[], relevant: Set<string>, k = 10): number {
  const seen = new Set<string>();
  const ids = ranked.filter((id) => id === undefined || (!seen.has(id) && (seen.add(id), true)));
  const i = ids.slice(0, k).findIndex((id) => id !== undefined && relevant.has(id));
  return i < 0 ? 0 : 1 / (i + 1);
}

/**
 * The documents as memories of `user`, each carrying its id as customMetadata.doc_id (how a hit
 * maps back to the qrels) and the given `policy` (AddMemory has no policy field; the API takes one).
 */
export function docMemories(docs: BeirDoc[], user: string, policy: unknown): (AddMemory & { policy: unknown })[] {
  return docs.map((d) => ({
    content: docContent(d),
    type: 'text' as const,
    external_user_id: user,
    metadata: { sourceType: user, customMetadata: { doc_id: d.id } },
    policy,
  }));
}

/** The doc_id a search hit carries (in metadata.customMetadata, or the top-level copy); undefined if none. */
export function docIdOf(m: MemoryObject): string | undefined {
  const id = m.metadata?.customMetadata?.doc_id ?? m.customMetadata?.doc_id;
  return typeof id === 'string' ? id : undefined;
}
