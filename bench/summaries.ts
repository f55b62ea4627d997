/**
 * Session summaries against LoCoMo's reference session summaries (ROUGE F1). Every session of
 * the dev conversations is fed to the local summarizer the way the service does it: a refresh
 * after every 15 turns and one at the end, each given the previous summary, the last 15 turns,
 * the last 100, and the turns since the last refresh. The final long_term is scored against
 * `session_summary.session_<n>_summary` (ROUGE-1/2/L F1, Porter-stemmed; bench/lib/rouge.ts).
 *
 * Baseline, lead-N: the session's first turns as "Speaker: text", cut to as many words as our
 * long_term for that session (so length never decides the comparison). Rows: the summarizer
 * with the USE-lite embedder and without an embedder, each with its own length-matched lead-N.
 * Means are macro over sessions; per-conversation means too; median time per refresh.
 *
 *   npx tsx bench/summaries.ts
 *
 * Env: LOCOMO_FILE (default: the dev split), SUMMARIES_ATTRIBUTION ('rewrite' | 'prefix'), SUMMARIES_EVERY
 * (turns between refreshes, default 15; 1000 summarises each session in one pass),
 * SUMMARIES_SHOW=<sample_id>:<session> prints that session's summary beside its reference.
 */
import fs from 'node:fs';
import { createLocalSummarizer } from '../src/platform/models/summarizer.local.ts';
import type { ConversationSummary, Summarizer, SummaryTurn } from '../src/platform/models/summarizer.ts';
import { createUseLiteEmbedder } from '../src/platform/models/use-lite.ts';
import type { Attribution } from '../src/platform/models/summarizer.local.voice.ts';
import { parseSessionDate, type Turn } from './lib/locomo-data.ts';
import { rouge } from './lib/rouge.ts';
import { median } from './stats.ts';

const FILE = process.env.LOCOMO_FILE || '/work/shared/data/locomo/locomo-dev.json';
const ATTRIBUTION = (process.env.SUMMARIES_ATTRIBUTION || 'rewrite') as Attribution;
const SHOW = process.env.SUMMARIES_SHOW;
const REFRESH_EVERY = Number(process.env.SUMMARIES_EVERY || 15);
const SHORT = 15;
const MEDIUM = 100;

interface Session {
  conv: string;
  n: number;
  turns: SummaryTurn[];
  reference: string;
}

function loadSessions(file: string): Session[] {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    sample_id: string;
    conversation: Record<string, unknown>;
    session_summary: Record<string, string>;
  }[];
  return raw.flatMap((c) =>
    Object.keys(c.conversation)
      .map((k) => /^session_(\d+)$/.exec(k))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b)
      .filter((n) => c.session_summary[`session_${n}_summary`])
      .map((n) => {
        const start = parseSessionDate(String(c.conversation[`session_${n}_date_time`]));
        const speakerA = String(c.conversation.speaker_a);
        const turns = (c.conversation[`session_${n}`] as Turn[]).map((t, i) => ({
          role: t.speaker === speakerA ? 'user' : 'assistant',
          speaker: t.speaker,
          content: t.text,
          createdAt: new Date(start.getTime() + i * 60_000),
        }));
        return { conv: c.sample_id, n, turns, reference: c.session_summary[`session_${n}_summary`] };
      }),
  );
}

/** Refreshes as the service runs them; the final summary and the time of each refresh. */
async function summarise(summarizer: Summarizer, turns: SummaryTurn[]) {
  let previous: ConversationSummary | undefined;
  let summarized = 0;
  const times: number[] = [];
  const points = turns.map((_, i) => i + 1).filter((k) => k % REFRESH_EVERY === 0 || k === turns.length);
  for (const upTo of points) {
    const medium = turns.slice(Math.max(0, upTo - MEDIUM), upTo);
    const t0 = performance.now();
    previous = await summarizer.summarize({
      recent: medium.slice(-SHORT),
      medium,
      newTurns: turns.slice(summarized, upTo),
      previous,
    });
    times.push(performance.now() - t0);
    summarized = upTo;
  }
  return { summary: previous!, times };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const leadN = (turns: SummaryTurn[], n: number) =>
  words(turns.map((t) => `${t.speaker}: ${t.content}`).join(' '))
    .slice(0, n)
    .join(' ');

type Scores = { r1: number; r2: number; rl: number };
const scoresOf = (candidate: string, reference: string): Scores => {
  const r = rouge(candidate, reference);
  return { r1: r.r1.f, r2: r.r2.f, rl: r.rl.f };
};
const mean = (xs: Scores[], k: keyof Scores) => (100 * xs.reduce((a, x) => a + x[k], 0)) / Math.max(1, xs.length);
const row = (label: string, xs: Scores[]) =>
  `${label.padEnd(34)} ${mean(xs, 'r1').toFixed(2).padStart(7)} ${mean(xs, 'r2').toFixed(2).padStart(7)} ` +
  `${mean(xs, 'rl').toFixed(2).padStart(7)}`;

const sessions = loadSessions(FILE);
const embedder = createUseLiteEmbedder();
await embedder.embed(['warm up']); // model load is start-up cost, not per-refresh cost
const variants: { label: string; summarizer: Summarizer }[] = [
  { label: 'local + USE-lite', summarizer: createLocalSummarizer({ embedder, attribution: ATTRIBUTION }) },
  { label: 'local, no embedder', summarizer: createLocalSummarizer({ attribution: ATTRIBUTION }) },
];

console.log(
  `${sessions.length} sessions of ${new Set(sessions.map((s) => s.conv)).size} conversations; ` +
    `refresh every ${REFRESH_EVERY} turns; attribution '${ATTRIBUTION}'; ROUGE F1 ×100, Porter-stemmed\n`,
);
for (const { label, summarizer } of variants) {
  const ours: (Scores & { conv: string })[] = [];
  const lead: (Scores & { conv: string })[] = [];
  const times: number[] = [];
  const lengths: number[] = [];
  for (const s of sessions) {
    const { summary, times: t } = await summarise(summarizer, s.turns);
    times.push(...t);
    const n = words(summary.long_term).length;
    lengths.push(n);
    ours.push({ conv: s.conv, ...scoresOf(summary.long_term, s.reference) });
    lead.push({ conv: s.conv, ...scoresOf(leadN(s.turns, n), s.reference) });
    if (SHOW === `${s.conv}:${s.n}`) console.log(`OURS: ${summary.long_term}\nREF:  ${s.reference}\n`, summary);
  }
  console.log(`== ${label} (${summarizer.id}) ==`);
  console.log(`${'system'.padEnd(34)} ${'R-1'.padStart(7)} ${'R-2'.padStart(7)} ${'R-L'.padStart(7)}`);
  for (const conv of [...new Set(sessions.map((s) => s.conv))]) {
    console.log(
      row(
        `${conv} ours`,
        ours.filter((x) => x.conv === conv),
      ),
    );
    console.log(
      row(
        `${conv} lead-N`,
        lead.filter((x) => x.conv === conv),
      ),
    );
  }
  console.log(row('ALL ours', ours));
  console.log(row('ALL lead-N (same length)', lead));
  const wins = (k: keyof Scores) => ours.filter((o, i) => o[k] > lead[i][k]).length;
  console.log(
    `ours above lead-N in ${wins('r1')} / ${wins('r2')} / ${wins('rl')} of ${ours.length} sessions (R-1/2/L)`,
  );
  console.log(
    `long_term words: median ${median(lengths)}; refreshes: ${times.length}, ` +
      `median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms\n`,
  );
}
