/**
 * LoCoMo loading and scoring (see /work/shared/data/locomo/README.md): one memory per turn,
 * the session date parsed from free text, malformed evidence ids repaired, and evidence
 * recall@k as the official `task_eval/evaluation.py` computes it.
 */
import fs from 'node:fs';
import type { AddMemory, MemoryObject } from './client.ts';

/** The data's category ids (they do not follow the paper's order; see the README). */
export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

/** One turn of a session. */
export interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

/** One question, with its evidence already normalised. */
export interface Question {
  question: string;
  category: number;
  evidence: string[];
}

/** A conversation: its sessions in order, each with its parsed start time. */
export interface Conversation {
  sampleId: string;
  sessions: { n: number; start: Date; turns: Turn[] }[];
  questions: Question[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Parse a LoCoMo session timestamp such as "1:56 pm on 8 May, 2023" to a UTC Date.
 * Tolerates a missing time, 24-hour times, "May 8, 2023", abbreviated month names and
 * missing commas; throws on anything else rather than guess (a wrong date would silently
 * skew recency-aware ranking).
 */
export function parseSessionDate(text: string): Date {
  const s = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const time = /(\d{1,2}):(\d{2})\s*(am|pm)?/.exec(s);
  const dayMonth = /\b(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})\b/.exec(s);
  const monthDay = /\b([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/.exec(s);
  let day: number, monthName: string, year: number;
  if (dayMonth && monthIndex(dayMonth[2]) >= 0)
    [day, monthName, year] = [Number(dayMonth[1]), dayMonth[2], Number(dayMonth[3])];
  else if (monthDay && monthIndex(monthDay[1]) >= 0)
    [day, monthName, year] = [Number(monthDay[2]), monthDay[1], Number(monthDay[3])];
  else throw new Error(`Unrecognised session date: ${JSON.stringify(text)}`);
  let hour = time ? Number(time[1]) : 0;
  const minute = time ? Number(time[2]) : 0;
  if (time?.[3]) hour = (hour % 12) + (time[3] === 'pm' ? 12 : 0); // 12:xx am is 00:xx, 12:xx pm is 12:xx
  const date = new Date(Date.UTC(year, monthIndex(monthName), day, hour, minute));
  if (date.getUTCDate() !== day || hour > 23 || minute > 59)
    throw new Error(`Invalid session date: ${JSON.stringify(text)}`);
  return date;
}

function monthIndex(name: string): number {
  return name.length >= 3 ? MONTHS.indexOf(name.slice(0, 3)) : -1;
}

/**
 * Repair the README's malformed evidence: split "D8:6; D9:17" and "D9:1 D4:4 D4:6", read
 * "D:11:26" as D11:26, strip leading zeros ("D30:05" → D30:5), drop what is not an id at
 * all ("D"), and drop duplicates. Ids that point past their session are kept: the official
 * code counts them as misses too.
 */
export function normaliseEvidence(ids: string[]): string[] {
  const out = new Set<string>();
  for (const raw of ids) {
    for (const part of raw.split(/[\s;,]+/)) {
      const m = /^D:?(\d+):(\d+)$/i.exec(part);
      if (m) out.add(`D${Number(m[1])}:${Number(m[2])}`);
    }
  }
  return [...out];
}

/** Read a LoCoMo file; sessions are the `session_<n>` lists (date keys without a session are ignored). */
export function loadLocomo(file: string): Conversation[] {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    sample_id: string;
    conversation: Record<string, unknown>;
    qa: { question: string; category: number; evidence?: string[] }[];
  }[];
  return raw.map((c) => {
    const sessions = Object.keys(c.conversation)
      .map((k) => /^session_(\d+)$/.exec(k))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b)
      .map((n) => ({
        n,
        start: parseSessionDate(String(c.conversation[`session_${n}_date_time`])),
        turns: c.conversation[`session_${n}`] as Turn[],
      }));
    const questions = c.qa.map((q) => ({
      question: q.question,
      category: q.category,
      evidence: normaliseEvidence(q.evidence ?? []),
    }));
    return { sampleId: c.sample_id, sessions, questions };
  });
}

/** The external user a conversation's memories belong to. */
export const userOf = (c: Conversation) => `locomo-${c.sampleId}`;

/**
 * Every turn as one memory, embedded the way the paper embeds turns. Turns get the
 * session's start time plus one minute each, so their order survives in `createdAt`.
 */
export function turnMemories(c: Conversation): AddMemory[] {
  return c.sessions.flatMap((s) =>
    s.turns.map((t, i) => ({
      content: `${t.speaker} said, "${t.text}"${t.blip_caption ? ` and shared ${t.blip_caption}.` : ''}`,
      type: 'text' as const,
      external_user_id: userOf(c),
      metadata: {
        createdAt: new Date(s.start.getTime() + i * 60_000).toISOString(),
        sessionId: `session_${s.n}`,
        conversationId: c.sampleId,
        sourceType: 'locomo',
        customMetadata: { dia_id: t.dia_id, speaker: t.speaker, turn: i + 1, session: s.n },
      },
    })),
  );
}

/** |evidence ∩ top k| / |evidence|; a question without evidence scores 1, as in the official code. */
export function recallAt(evidence: string[], ranked: string[], k: number): number {
  if (evidence.length === 0) return 1;
  const top = new Set(ranked.slice(0, k));
  return evidence.filter((e) => top.has(e)).length / evidence.length;
}

/** BENCH_SEARCH_EXTRA: a JSON object of search options added to every question's search. */
export function parseExtra(json: string | undefined): Record<string, unknown> {
  const v: unknown = json ? JSON.parse(json) : {};
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error('BENCH_SEARCH_EXTRA must be a JSON object');
  return v as Record<string, unknown>;
}

/** The turn id a memory came from; a memory without one means the metadata did not round-trip. */
export function diaId(m: MemoryObject): string {
  const id = m.customMetadata?.dia_id ?? m.metadata?.customMetadata?.dia_id;
  if (typeof id !== 'string') throw new Error(`search returned memory ${m.id} without customMetadata.dia_id`);
  return id;
}
