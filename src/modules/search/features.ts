/**
 * Ranking features of one search's candidates (docs/transform.md, "Search providers"): what the first
 * stage knew (each signal's normalised score), the graph-transform scores, and text features
 * read from the candidates themselves (query-term coverage, proximity, the lead's and the best
 * sentence's coverage, the query's adjacent term pairs), recency, speaker match, and the code
 * models' scores (the code-words cosine, the code-translation likelihood). The learned ranker
 * (ranker.ts) is a linear model over these after each is standardised within the query's
 * candidates, so it learns how signals compare inside one result list, not their raw scale,
 * which differs between corpora.
 */
import { committedCodeTranslation, committedCodeWords, dot } from '../../platform/models/index.ts';
import { analyze } from '../../platform/text-analyzer.ts';

export interface Candidate {
  id: string;
  content: string;
  createdAt: Date;
  metadata: Record<string, unknown>;
  /** The fused score (after session neighbours). */
  firstStage: number;
  /** Normalised list scores of the fused signals: bm25, dense, dense2, graph. */
  parts: number[];
}

/** Graph-transform scores of a candidate (score.ts), when the provider made them. */
export interface ArtifactFeatures {
  base: number;
  enhanced: number;
  bands: number[];
}

export const BAND_FEATURES = 14;
export const FEATURE_NAMES = [
  'first_stage',
  'bm25',
  'dense',
  'dense2',
  'graph',
  'coverage',
  'proximity',
  'lead_coverage',
  'sentence_coverage',
  'bigram',
  'title_coverage',
  'length',
  'recency',
  'speaker',
  'code_words',
  'code_translation',
  'base',
  'enhanced',
  ...Array.from({ length: BAND_FEATURES }, (_, k) => `band_${k}`),
] as const;

/** The features read from graph-transform artifacts: a model without them needs no transform. */
export const ARTIFACT_FEATURES: readonly string[] = [
  'base',
  'enhanced',
  ...FEATURE_NAMES.filter((f) => f.startsWith('band_')),
];

/** Window (terms) for the proximity feature: about a sentence. */
const WINDOW = 12;
/** Terms that make a memory's lead (a title, a first sentence). */
const LEAD = 30;

function speakerOf(c: Candidate): string {
  const m = c.metadata ?? {};
  const custom = (m.customMetadata ?? {}) as Record<string, unknown>;
  const named = [m.speaker, custom.speaker].find((x) => typeof x === 'string');
  if (named) return String(named).toLowerCase();
  const prefix = /^\s*([A-Z][\w .'-]{0,40}):/.exec(c.content);
  return prefix ? prefix[1].toLowerCase() : '';
}

/** Sentences of a text: a break after . ! or ?, or a line break (abstracts, code comments, turns). */
const SENTENCE = /(?<=[.!?])\s+|\n+/;

/** Adjacent term pairs of an analysed text (stop words already out: "risk of cancer" → risk·cancer). */
const pairs = (terms: string[]) => terms.slice(1).map((t, i) => `${terms[i]} ${t}`);

/** The code models' features of a query: scores of one text alone, whatever the other candidates. */
function codeScorers(query: string): Record<'code_words' | 'code_translation', (text: string) => number> {
  // The code-words model's cosine (platform/models/code-words.ts): what a query about code and a
  // function have in common beyond shared words.
  const codeWords = committedCodeWords();
  const codeQuery = codeWords.vector(query, true);
  return {
    code_words: (text) => dot(codeQuery, codeWords.vector(text)),
    // And word by word: how likely the query is as a description of the text (code-translation.ts).
    code_translation: committedCodeTranslation().scorer(query),
  };
}

/** The code models' features: a candidate's own scores, whatever the others. */
export const CODE_FEATURES = ['code_words', 'code_translation'] as const;
/** The features a wider pool is narrowed by (ranker.ts RankerPool): the code models', for that reason. */
export const POOL_FEATURES = CODE_FEATURES;
export type PoolFeature = (typeof POOL_FEATURES)[number];

/** Those features of each candidate, in the order of `names`. */
export function poolFeatures(query: string, candidates: Candidate[], names: PoolFeature[]): number[][] {
  const code = codeScorers(query);
  return candidates.map((c) => names.map((n) => code[n](c.content)));
}

/** Feature rows, one per candidate, in FEATURE_NAMES order. */
export function candidateFeatures(
  query: string,
  candidates: Candidate[],
  artifacts?: Map<string, ArtifactFeatures>,
  /**
   * Whether the code models score the candidates (`code: false` leaves their features 0): a model
   * that weighs neither, `general` or `documents`, need not pay for them on every svc_max search.
   */
  opts: { code?: boolean } = {},
): number[][] {
  const qTerms = [...new Set(analyze(query))];
  // Analysed sentence by sentence: their concatenation is the text's analysis (a break never
  // falls inside a word), and the best sentence says whether the query's terms meet in one claim.
  const sentences = candidates.map((c) => c.content.split(SENTENCE).map(analyze));
  const docs = sentences.map((ss) => ss.flat());
  const qPairs = [...new Set(pairs(analyze(query)))];
  // Inverse document frequency within the candidates (+1 smoothing): which query terms
  // separate these candidates, the question a reranker asks.
  const n = candidates.length;
  const idf = new Map(qTerms.map((t) => [t, Math.log(1 + (n + 1) / (1 + docs.filter((d) => d.includes(t)).length))]));
  const idfSum = qTerms.reduce((s, t) => s + idf.get(t)!, 0) || 1;
  const times = candidates.map((c) => c.createdAt.getTime());
  const [tMin, tMax] = [Math.min(...times), Math.max(...times)];
  const lowerQuery = query.toLowerCase();
  const code = opts.code === false ? null : codeScorers(query);
  return candidates.map((c, i) => {
    const terms = docs[i];
    const present = new Set(terms);
    const coverage = qTerms.reduce((s, t) => s + (present.has(t) ? idf.get(t)! : 0), 0) / idfSum;
    const covered = (within: Set<string>) => qTerms.reduce((s, t) => s + (within.has(t) ? idf.get(t)! : 0), 0) / idfSum;
    const leadCoverage = covered(new Set(terms.slice(0, LEAD)));
    // The first line or sentence: a document's title, a function's signature, a chat turn's opening.
    const titleCoverage = covered(new Set(sentences[i][0] ?? []));
    // A loop, not Math.max(...): a long memory can have more sentences than a call takes arguments.
    let sentenceCoverage = 0;
    for (const ss of sentences[i]) if (ss.length) sentenceCoverage = Math.max(sentenceCoverage, covered(new Set(ss)));
    const docPairs = new Set(pairs(terms));
    const bigram = qPairs.length ? qPairs.filter((p) => docPairs.has(p)).length / qPairs.length : 0;
    let proximity = 0;
    if (qTerms.length > 1) {
      const q = new Set(qTerms);
      for (let s = 0; s < terms.length; s++) {
        if (!q.has(terms[s])) continue;
        const seen = new Set(terms.slice(s, s + WINDOW).filter((t) => q.has(t)));
        proximity = Math.max(proximity, seen.size / qTerms.length);
      }
    }
    const speaker = speakerOf(c);
    const a = artifacts?.get(c.id);
    return [
      c.firstStage,
      ...[0, 1, 2, 3].map((k) => c.parts[k] ?? 0),
      coverage,
      proximity,
      leadCoverage,
      sentenceCoverage,
      bigram,
      titleCoverage,
      Math.log(1 + terms.length),
      tMax > tMin ? (times[i] - tMin) / (tMax - tMin) : 0,
      speaker && lowerQuery.includes(speaker.split(' ')[0]) ? 1 : 0,
      code ? code.code_words(c.content) : 0,
      code ? code.code_translation(c.content) : 0,
      a?.base ?? 0,
      a?.enhanced ?? 0,
      ...Array.from({ length: BAND_FEATURES }, (_, k) => a?.bands[k] ?? 0),
    ];
  });
}

/**
 * Standardise each feature within the list (z-scores; a constant feature becomes 0), the
 * ranker's input: only differences between a query's candidates carry information.
 */
export function standardise(rows: number[][]): number[][] {
  if (!rows.length) return rows;
  const m = rows[0].length;
  const mean = new Array<number>(m).fill(0);
  const sd = new Array<number>(m).fill(0);
  for (const r of rows) r.forEach((x, j) => (mean[j] += x / rows.length));
  for (const r of rows) r.forEach((x, j) => (sd[j] += (x - mean[j]) ** 2 / rows.length));
  return rows.map((r) => r.map((x, j) => (sd[j] > 1e-12 ? (x - mean[j]) / Math.sqrt(sd[j]) : 0)));
}
