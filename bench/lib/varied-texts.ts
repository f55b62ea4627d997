/**
 * Varied texts for model checks, drawn evenly from the evaluation data (../shared/data):
 * LoCoMo turns and questions (chat), SciFact claims, titles and abstracts (long, technical),
 * CoSQA queries and code, plus hand-written edge cases (unicode, emoji, whitespace runs,
 * very long inputs). Deterministic: the same `count` gives the same texts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLocomo } from './locomo-data.ts';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/data');

const EDGE_CASES = [
  'x',
  'OK',
  '   leading and trailing spaces   ',
  'tabs\tand\nnew\nlines',
  'naïve café — “curly quotes” and ‘apostrophes’',
  'Emoji 😀🎉 and astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 letters',
  'ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ (NFKC folds these)',
  '日本語のテキストと中文文本',
  'Ünïcödé ÀÉÎÕÜ ß ø å',
  'multiple     spaces    between     words',
  'numbers 3.14159 2,718 1e-9 -42 +7 0x1F',
  'https://example.com/path?query=1&b=2#frag user@example.org',
  'a'.repeat(600),
  'word '.repeat(300),
  '!!!???...,,,;;;',
];

function jsonl(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(path.join(DATA, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Every `step`-th item, so a small count still spans the whole source. */
function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]);
}

/** `count` varied texts (at least the edge cases). */
export function variedTexts(count: number): string[] {
  const conversations = loadLocomo(path.join(DATA, 'locomo/locomo-dev.json'));
  const turns = conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns.map((t) => `${t.speaker}: ${t.text}`)));
  const questions = conversations.flatMap((c) => c.questions.map((q) => q.question));
  const scifact = jsonl('scifact/corpus.jsonl');
  const scifactQueries = jsonl('scifact/queries.jsonl').map((q) => String(q.text));
  const cosqa = jsonl('cosqa/corpus.jsonl').map((d) => String(d.text));
  const cosqaQueries = jsonl('cosqa/queries.jsonl').map((q) => String(q.text));
  const rest = Math.max(0, count - EDGE_CASES.length);
  const share = Math.floor(rest / 8);
  const texts = [
    ...EDGE_CASES,
    ...spread(turns, share * 2),
    ...spread(questions, share),
    ...spread(
      scifact.map((d) => String(d.title)),
      share,
    ),
    ...spread(
      scifact.map((d) => String(d.text)),
      share,
    ),
    ...spread(scifactQueries, share),
    ...spread(cosqa, share),
    ...spread(cosqaQueries, rest - share * 7),
  ];
  return texts.slice(0, Math.max(count, EDGE_CASES.length));
}
