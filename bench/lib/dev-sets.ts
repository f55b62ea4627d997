/**
 * The three development sets as studies use them in-process (bench/signals.ts,
 * scripts/train-ranker.ts): each set's memories (one user per SciFact and CoSQA corpus, one per
 * LoCoMo conversation), its queries with their relevant document ids, the graph-transform domain
 * its documents belong to, and ingestion into a kept store (skipped for a set already stored).
 */
import fs from 'node:fs';
import pg from 'pg';
import type { AddMemory } from './client.ts';
import * as beir from './beir.ts';
import { STUDY_KEY, type InProcessStack } from './inprocess.ts';
import { startBenchServer, tmpDir } from './server.ts';
import { loadLocomo, turnMemories, userOf, type Conversation } from './locomo-data.ts';
import { loadAbstracts, SCIFACT_DIR } from './scifact.ts';

export const COSQA_DIR = process.env.COSQA_DIR || '/work/shared/data/cosqa';
export const LOCOMO_FILE = process.env.LOCOMO_FILE || '/work/shared/data/locomo/locomo-dev.json';

export interface DevQuery {
  qid: string;
  /** LoCoMo: the conversation; SciFact: the split (dev, train); CoSQA: dev. */
  group: string;
  category?: number;
  text: string;
  user: string;
  relevant: string[];
}

export interface DevSet {
  name: 'scifact' | 'cosqa' | 'locomo' | 'locomo-plain';
  domain: string;
  users: string[];
  memories: () => AddMemory[];
  queries: () => DevQuery[];
  /** Stored one memory at a time, as an application adding turns as they happen (default: batches of 100). */
  oneByOne?: boolean;
}

/**
 * LoCoMo's turns the way most applications add memories: one by one, in conversation order,
 * without `metadata.sessionId` and without a per-turn `createdAt` (the speaker and the turn id
 * stay, in customMetadata). The "plain" protocol of issue #24; its own users.
 */
export const plainUserOf = (c: Conversation) => `locomo-plain-${c.sampleId}`;
export function plainTurnMemories(c: Conversation): AddMemory[] {
  return turnMemories(c).map((m) => {
    const { createdAt: _t, sessionId: _s, ...metadata } = m.metadata as Record<string, unknown>;
    return { ...m, external_user_id: plainUserOf(c), metadata } as AddMemory;
  });
}

const scifactQueries = (split: 'dev' | 'train'): DevQuery[] =>
  beir.loadQrelQueries(SCIFACT_DIR, split).map((q) => ({
    qid: q.id,
    group: split,
    text: q.text,
    user: 'scifact',
    relevant: [...q.relevant],
  }));

export function devSets(): DevSet[] {
  const convs = loadLocomo(LOCOMO_FILE);
  const locomoQueries = (user: (c: Conversation) => string) => () =>
    convs.flatMap((c) =>
      c.questions.map((q, i) => ({
        qid: `${c.sampleId}#${i}`,
        group: c.sampleId,
        category: q.category,
        text: q.question,
        user: user(c),
        relevant: q.evidence,
      })),
    );
  return [
    {
      name: 'scifact',
      domain: 'scifact',
      users: ['scifact'],
      memories: () => beir.docMemories(loadAbstracts(SCIFACT_DIR), 'scifact', undefined),
      queries: () => [...scifactQueries('dev'), ...scifactQueries('train')],
    },
    {
      name: 'cosqa',
      domain: 'cosqa',
      users: ['cosqa'],
      memories: () => beir.docMemories(beir.loadCorpus(COSQA_DIR), 'cosqa', undefined),
      queries: () =>
        beir
          .loadQrelQueries(COSQA_DIR, 'dev')
          .map((q) => ({ qid: q.id, group: 'dev', text: q.text, user: 'cosqa', relevant: [...q.relevant] })),
    },
    {
      name: 'locomo',
      domain: 'general',
      users: convs.map(userOf),
      memories: () => convs.flatMap(turnMemories),
      queries: locomoQueries(userOf),
    },
    {
      name: 'locomo-plain',
      domain: 'general',
      users: convs.map(plainUserOf),
      memories: () => convs.flatMap(plainTurnMemories),
      queries: locomoQueries(plainUserOf),
      oneByOne: true,
    },
  ];
}

/** The document id a stored memory carries (customMetadata doc_id, or LoCoMo's dia_id). */
export function docKey(metadata: Record<string, unknown>): string {
  const custom = (metadata.customMetadata ?? {}) as Record<string, unknown>;
  return String(custom.doc_id ?? custom.dia_id);
}

/** Create the PostgreSQL database of `url` if it does not exist (a kept study store). */
export async function ensureDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name ${name}`);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!exists.rowCount) await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
}

/** Ingest `set` through the memories service unless its users already have memories; returns the count stored. */
export async function ensureIngested(stack: InProcessStack, set: DevSet, log: (s: string) => void): Promise<number> {
  const [{ n }] = await stack.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM memories m JOIN users u ON u.id = m.user_id WHERE u.external_id = ANY($1)`,
    [set.users],
  );
  if (n > 0) {
    log(`${set.name}: ${n} memories already stored`);
    return n;
  }
  const items = set.memories();
  const t0 = performance.now();
  const step = set.oneByOne ? 1 : 100;
  for (let i = 0; i < items.length; i += step) {
    if (set.oneByOne) await stack.memories.add(stack.actor, items[i] as never);
    else await stack.memories.addBatch(stack.actor, items.slice(i, i + step) as never, {}, 50);
    if (i % 1000 === 0) log(`${set.name}: ${i}/${items.length} ingested`);
  }
  log(`${set.name}: ${items.length} ingested in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return items.length;
}

/**
 * Run the store's queued background processing (`memory.process`: the graph, whose Date nodes the
 * time signal reads and which agentic search walks) to its end, as a deployment's worker would:
 * a server on the store (api and worker roles) until no such job is queued or running. The
 * in-process stack writes memories as the API does but runs no worker, so without this a study
 * store lacks what production has by the time it is searched.
 */
export async function ensureProcessed(stack: InProcessStack, databaseUrl: string, log: (s: string) => void) {
  const pending = async () =>
    (
      await stack.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM jobs WHERE kind = 'memory.process' AND status IN ('queued', 'running')`,
      )
    )[0].n;
  let left = await pending();
  if (!left) return;
  const t0 = performance.now();
  const dataDir = tmpDir();
  const server = await startBenchServer({ dataDir, key: STUDY_KEY, databaseUrl });
  try {
    while (left > 0) {
      log(`background processing: ${left} memories left, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      await new Promise((r) => setTimeout(r, 10_000));
      left = await pending();
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
