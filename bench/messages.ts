/**
 * LoCoMo through the messages API against the memories path, in one run on one fresh server:
 *
 *   A (memories): every turn a memory, exactly as bench/locomo.ts stores them (batch, session id,
 *     per-turn createdAt, customMetadata.dia_id), as external user `locomo-<conv>-A`;
 *   B (messages): the same turns, same content and metadata, sent one by one through
 *     POST /v1/messages (one chat session per LoCoMo session, `<conv>-s<n>`; speaker_a is the
 *     `user`, speaker_b the `assistant`; sessions in parallel, each session's turns in order) as
 *     `locomo-<conv>-B`, then waited on until every message's memory is searchable.
 *
 * Every question is searched as both users with the same body; evidence recall@5/10/25 per category
 * and B−A are printed (the issue asks |B−A| ≤ 1 point overall), with POST /v1/messages latency,
 * ingest rate, processing time after the last POST, GET …/compress latency (first call and cached)
 * and a JSON summary line.
 *
 *   npm run bench:messages
 *   LOCOMO_LIMIT_CONV=1 npm run bench:messages                                  (one conversation)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:messages   (PostgreSQL)
 *
 * Both users' chunks share the vector indexes. On a small store (LOCOMO_LIMIT_CONV=1) the planner may
 * take the HNSW index for one user's secondary (GloVe SIF) scan and the exact per-user scan for the
 * other; the HNSW scan is filtered by user after its ef_search candidates, so that user gets fewer
 * dense2 candidates and B−A moves by a few tenths of a point with no difference in the data. The
 * report compares the two paths' memories of the same turns (content and metadata) to tell these apart.
 *
 * Other knobs: LOCOMO_FILE (default: the dev split), LOCOMO_CONCURRENCY (searches in flight, 4),
 * MESSAGES_INFLIGHT (sessions sending at once, 3), MESSAGES_TIMEOUT_MS (processing wait, 30 min),
 * BENCH_SEARCH_EXTRA (search options, as in bench/locomo.ts).
 */
import fs from 'node:fs';
import { memoryApi, type AddMemory } from './lib/client.ts';
import {
  CATEGORY_NAMES,
  diaId,
  loadLocomo,
  parseExtra,
  recallAt,
  turnMemories,
  userOf,
  type Conversation,
} from './lib/locomo-data.ts';
import { mapConcurrent } from './lib/pool.ts';
import { withFreshServer } from './lib/server.ts';
import { fmt, median, percentile } from './stats.ts';

const FILE = process.env.LOCOMO_FILE || '/work/shared/data/locomo/locomo-dev.json';
const PG_BASE = process.env.BENCH_DATABASE_URL || undefined;
const LIMIT = Number(process.env.LOCOMO_LIMIT_CONV || 0);
const CONCURRENCY = Number(process.env.LOCOMO_CONCURRENCY || 4);
const SESSIONS_INFLIGHT = Number(process.env.MESSAGES_INFLIGHT || 3);
const TIMEOUT_MS = Number(process.env.MESSAGES_TIMEOUT_MS || 30 * 60_000);
const EXTRA = parseExtra(process.env.BENCH_SEARCH_EXTRA);
const KS = [5, 10, 25];
const INGEST_INFLIGHT = 2; // as bench/locomo.ts
const POLL_MS = 250;

// ---- the data -------------------------------------------------------------------------------------

const conversations = loadLocomo(FILE).slice(0, LIMIT > 0 ? LIMIT : undefined);
/** speaker_a of each conversation (loadLocomo does not keep it): their turns are the `user`'s. */
const speakerA = new Map(
  (JSON.parse(fs.readFileSync(FILE, 'utf8')) as { sample_id: string; conversation: { speaker_a: string } }[]).map(
    (c) => [c.sample_id, c.conversation.speaker_a],
  ),
);
const userA = (c: Conversation) => `${userOf(c)}-A`;
const userB = (c: Conversation) => `${userOf(c)}-B`;

/** Path A: bench/locomo.ts's memories, owned by the A user. */
const memoriesA: AddMemory[] = conversations.flatMap((c) =>
  turnMemories(c).map((m) => ({ ...m, external_user_id: userA(c) })),
);

/** A message as POST /v1/messages takes it. */
interface MessageBody {
  sessionId: string;
  role: 'user' | 'assistant';
  content: string;
  external_user_id: string;
  metadata: Record<string, unknown>;
  process_messages: true;
}

/**
 * Path B: one chat session per LoCoMo session, its turns in order, from the very memories of path
 * A (so content, createdAt and customMetadata are the same). `sessionId` and `sourceType` are not
 * sent in the metadata: the server sets them on the memory (the session's id, "message").
 */
const sessionsB = conversations.flatMap((c) => {
  const memories = turnMemories(c);
  const a = speakerA.get(c.sampleId);
  if (!a) throw new Error(`conversation ${c.sampleId} has no speaker_a`);
  let at = 0;
  return c.sessions.map((s) => {
    const messages = s.turns.map((t): MessageBody => {
      const m = memories[at++];
      if (m.metadata.customMetadata?.dia_id !== t.dia_id) throw new Error(`turn order mismatch at ${t.dia_id}`);
      const { sessionId: _s, sourceType: _t, ...metadata } = m.metadata;
      return {
        sessionId: `${c.sampleId}-s${s.n}`,
        role: t.speaker === a ? 'user' : 'assistant',
        content: m.content,
        external_user_id: userB(c),
        metadata: { ...metadata, speaker: t.speaker },
        process_messages: true,
      };
    });
    return { id: `${c.sampleId}-s${s.n}`, messages };
  });
});
const questions = conversations.flatMap((c) => c.questions.map((q) => ({ ...q, a: userA(c), b: userB(c) })));
const messageCount = sessionsB.reduce((n, s) => n + s.messages.length, 0);

// ---- HTTP -----------------------------------------------------------------------------------------

interface MessageReply {
  objectId: string;
  processing_status: string;
}
type Processing = Record<'unprocessed' | 'queued' | 'analyzing' | 'completed' | 'failed', number>;
interface StatusReply {
  message_count: number;
  processing: Processing;
  errors: { objectId: string; error: string }[];
}
interface CompressReply {
  from_cache: boolean;
  message_count: number;
}

function http(baseUrl: string, key: string) {
  return async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) {
      const hint = res.status === 404 && path === '/v1/messages' ? ' (is the messages module mounted?)' : '';
      throw new Error(`${method} ${path} answered ${res.status}${hint}: ${text.slice(0, 500)}`);
    }
    return JSON.parse(text) as T;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const enc = encodeURIComponent;

// ---- the run --------------------------------------------------------------------------------------

type Hit = { content: string; metadata: Record<string, unknown> };
type Row = { category: number; a: number[]; b: number[] };

const result = await withFreshServer(PG_BASE, async (server, key) => {
  const api = memoryApi(server.url, key);
  const call = http(server.url, key);

  // A: the memories path.
  let t0 = performance.now();
  await api.addAll(memoriesA, INGEST_INFLIGHT);
  const ingestAMs = performance.now() - t0;
  console.error(`A: ${memoriesA.length} memories stored in ${(ingestAMs / 1000).toFixed(1)} s`);

  // B: the messages path, each session in order, a few sessions at once.
  const postMs: number[] = [];
  t0 = performance.now();
  await mapConcurrent(sessionsB, SESSIONS_INFLIGHT, async (s) => {
    for (const m of s.messages) {
      const t = performance.now();
      const r = await call<MessageReply>('POST', '/v1/messages', m);
      postMs.push(performance.now() - t);
      if (
        r.processing_status !== 'queued' &&
        r.processing_status !== 'analyzing' &&
        r.processing_status !== 'completed'
      )
        throw new Error(`message ${r.objectId} of ${s.id} answered processing_status ${r.processing_status}`);
    }
  });
  const sendMs = performance.now() - t0;
  console.error(`B: ${messageCount} messages sent in ${(sendMs / 1000).toFixed(1)} s; waiting for their memories`);

  // Wait until every message's memory exists ('analyzing' = searchable, graph pending; or 'completed').
  const waitStart = performance.now();
  const searchable = new Map<string, number>(); // per session, as last seen
  let lastProgress = waitStart;
  let pending = sessionsB.map((s) => s.id);
  for (;;) {
    const still: string[] = [];
    for (const id of pending) {
      const st = await call<StatusReply>('GET', `/v1/messages/sessions/${enc(id)}/status`);
      if (st.processing.failed > 0)
        throw new Error(`session ${id}: ${st.processing.failed} message(s) failed: ${JSON.stringify(st.errors)}`);
      searchable.set(id, st.processing.analyzing + st.processing.completed);
      if (st.processing.analyzing + st.processing.completed !== st.message_count) still.push(id);
    }
    pending = still;
    if (!pending.length) break;
    const now = performance.now();
    if (now - waitStart > TIMEOUT_MS)
      throw new Error(
        `${pending.length} session(s) still processing ${(TIMEOUT_MS / 1000).toFixed(0)} s after the last POST ` +
          `(first: ${pending[0]}); raise MESSAGES_TIMEOUT_MS or look at the server's job worker`,
      );
    if (now - lastProgress > 15_000) {
      lastProgress = now;
      const n = [...searchable.values()].reduce((a, b) => a + b, 0);
      console.error(`B: ${n} of ${messageCount} searchable after ${((now - waitStart) / 1000).toFixed(0)} s`);
    }
    await sleep(POLL_MS);
  }
  const processMs = performance.now() - waitStart;
  console.error(`B: all messages are memories ${(processMs / 1000).toFixed(1)} s after the last POST`);

  // Searches: every question as A and as B, same body.
  const searchMs = { a: [] as number[], b: [] as number[] };
  const hits = { a: new Map<string, Hit>(), b: new Map<string, Hit>() };
  const k = Math.max(...KS);
  const rows = await mapConcurrent(questions, CONCURRENCY, async (q): Promise<Row> => {
    const recall: Record<'a' | 'b', number[]> = { a: [], b: [] };
    for (const path of ['a', 'b'] as const) {
      const t = performance.now();
      const ranked = await api.search({ ...EXTRA, query: q.question, external_user_id: q[path] }, k);
      searchMs[path].push(performance.now() - t);
      const ids = ranked.map(diaId);
      ranked.forEach((m, i) => hits[path].set(`${q.a}:${ids[i]}`, { content: m.content, metadata: m.metadata ?? {} }));
      recall[path] = KS.map((n) => recallAt(q.evidence, ids, n));
    }
    return { category: q.category, a: recall.a, b: recall.b };
  });

  // Compress: every session twice; the second call must come from the stored summaries.
  const compress = { first: [] as number[], cached: [] as number[], firstFromCache: 0, notCached: [] as string[] };
  for (const s of sessionsB) {
    for (const round of ['first', 'cached'] as const) {
      const t = performance.now();
      const r = await call<CompressReply>('GET', `/v1/messages/sessions/${enc(s.id)}/compress`);
      compress[round].push(performance.now() - t);
      if (round === 'first' && r.from_cache) compress.firstFromCache++;
      if (round === 'cached' && !r.from_cache) compress.notCached.push(s.id);
    }
  }

  // Where the graph is by now (not waited for: search does not need it).
  const total: Processing = { unprocessed: 0, queued: 0, analyzing: 0, completed: 0, failed: 0 };
  for (const s of sessionsB) {
    const st = await call<StatusReply>('GET', `/v1/messages/sessions/${enc(s.id)}/status`);
    for (const [name, n] of Object.entries(st.processing)) total[name as keyof Processing] += n;
  }
  return { ingestAMs, postMs, sendMs, processMs, searchMs, hits, rows, compress, finalStatus: total };
});

// ---- report ---------------------------------------------------------------------------------------

const { ingestAMs, postMs, sendMs, processMs, searchMs, hits, rows, compress, finalStatus } = result;
const mean = (rs: Row[], path: 'a' | 'b') => KS.map((_, j) => rs.reduce((s, r) => s + r[path][j], 0) / rs.length);
const pct = (x: number) => (100 * x).toFixed(1).padStart(7);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`.padStart(7);

const groups = Object.keys(CATEGORY_NAMES)
  .map(Number)
  .map((cat) => ({ name: `${cat} ${CATEGORY_NAMES[cat]}`, rows: rows.filter((r) => r.category === cat) }))
  .filter((g) => g.rows.length > 0);
groups.push({ name: 'overall', rows });

const store = PG_BASE ? 'postgres' : 'pglite';
console.log(
  `LoCoMo evidence recall (%) on ${store}, A = memories (batch), B = messages: ${conversations.length} ` +
    `conversations, ${sessionsB.length} sessions, ${messageCount} turns, ${questions.length} questions; ` +
    `search extra ${JSON.stringify(EXTRA)}`,
);
const head = (p: string) => KS.map((n) => `${p}@${n}`.padStart(7)).join('');
console.log(`${'category'.padEnd(16)}${'n'.padStart(6)}  ${head('A')}  ${head('B')}  ${head('B−A')}`);
for (const g of groups) {
  const [a, b] = [mean(g.rows, 'a'), mean(g.rows, 'b')];
  console.log(
    `${g.name.padEnd(16)}${String(g.rows.length).padStart(6)}  ${a.map(pct).join('')}  ${b.map(pct).join('')}  ` +
      `${b.map((x, j) => signed(x - a[j])).join('')}`,
  );
}
const overallA = mean(rows, 'a');
const overallB = mean(rows, 'b');
const worstDiff = Math.max(...overallB.map((x, j) => Math.abs(x - overallA[j])));
console.log(
  `overall |B−A| max over k: ${(100 * worstDiff).toFixed(2)} points ` +
    `(${worstDiff <= 0.01 ? 'within' : 'OUTSIDE'} the 1-point bound)`,
);

// Do the two paths' memories of the same turn carry the same content and metadata?
const serverKeys = new Set(['sessionId', 'sourceType', 'role', 'messageId', 'speaker']);
let compared = 0;
let contentDiffers = 0;
const keyDiffs = new Map<string, number>();
for (const [id, b] of hits.b) {
  const a = hits.a.get(id);
  if (!a) continue;
  compared++;
  if (a.content !== b.content) contentDiffers++;
  for (const k of new Set([...Object.keys(a.metadata), ...Object.keys(b.metadata)])) {
    if (serverKeys.has(k)) continue;
    if (JSON.stringify(a.metadata[k]) !== JSON.stringify(b.metadata[k])) keyDiffs.set(k, (keyDiffs.get(k) ?? 0) + 1);
  }
}
const example = [...hits.b.keys()].find((id) => hits.a.has(id));
if (example) {
  console.log(`metadata of one turn, A: ${JSON.stringify(hits.a.get(example)!.metadata)}`);
  console.log(`metadata of one turn, B: ${JSON.stringify(hits.b.get(example)!.metadata)}`);
}
console.log(
  `same turn in both paths' results: ${compared} compared, content differs in ${contentDiffers}, ` +
    `metadata differs (besides ${[...serverKeys].join(', ')}): ` +
    `${keyDiffs.size ? JSON.stringify(Object.fromEntries(keyDiffs)) : 'nowhere'}`,
);

const sendS = sendMs / 1000;
console.log(
  `ingest A: ${memoriesA.length} memories in ${(ingestAMs / 1000).toFixed(1)} s (batch, ${INGEST_INFLIGHT} in flight)`,
);
console.log(
  `POST /v1/messages: p50 ${fmt(median(postMs))}, p95 ${fmt(percentile(postMs, 95))}, ` +
    `p99 ${fmt(percentile(postMs, 99))} (n=${postMs.length}, ${SESSIONS_INFLIGHT} sessions in flight)`,
);
console.log(
  `ingest B: ${messageCount} messages in ${sendS.toFixed(1)} s (${(messageCount / sendS).toFixed(1)} messages/s); ` +
    `all searchable ${(processMs / 1000).toFixed(1)} s after the last POST ` +
    `(${(messageCount / ((sendMs + processMs) / 1000)).toFixed(1)} messages/s end to end)`,
);
console.log(`B processing at the end of the run (graph not waited for): ${JSON.stringify(finalStatus)}`);
console.log(
  `search A: p50 ${fmt(median(searchMs.a))}, p95 ${fmt(percentile(searchMs.a, 95))}; ` +
    `B: p50 ${fmt(median(searchMs.b))}, p95 ${fmt(percentile(searchMs.b, 95))} ` +
    `(n=${searchMs.a.length} each, ${CONCURRENCY} questions in flight, B's graph jobs running meanwhile)`,
);
console.log(
  `compress first call: p50 ${fmt(median(compress.first))}, p95 ${fmt(percentile(compress.first, 95))} ` +
    `(${compress.firstFromCache} of ${compress.first.length} already from cache); cached: ` +
    `p50 ${fmt(median(compress.cached))}, p95 ${fmt(percentile(compress.cached, 95))}`,
);
if (compress.notCached.length) {
  console.error(`FAIL: second compress not from cache for ${compress.notCached.join(', ')}`);
  process.exitCode = 1;
}

const recallJson = (path: 'a' | 'b') =>
  Object.fromEntries(
    groups.map((g) => [
      g.name,
      { n: g.rows.length, ...Object.fromEntries(KS.map((n, j) => [`r@${n}`, mean(g.rows, path)[j]])) },
    ]),
  );
console.log(
  JSON.stringify({
    bench: 'messages',
    store,
    file: FILE,
    conversations: conversations.length,
    sessions: sessionsB.length,
    turns: messageCount,
    questions: questions.length,
    search_extra: EXTRA,
    recall_a: recallJson('a'),
    recall_b: recallJson('b'),
    overall_diff_b_minus_a: Object.fromEntries(KS.map((n, j) => [`r@${n}`, overallB[j] - overallA[j]])),
    ingest_a_ms: Math.round(ingestAMs),
    post_p50_ms: median(postMs),
    post_p95_ms: percentile(postMs, 95),
    post_p99_ms: percentile(postMs, 99),
    sessions_in_flight: SESSIONS_INFLIGHT,
    ingest_b_ms: Math.round(sendMs),
    messages_per_s: messageCount / sendS,
    processing_after_last_post_ms: Math.round(processMs),
    search_a_p50_ms: median(searchMs.a),
    search_b_p50_ms: median(searchMs.b),
    compress_first_p50_ms: median(compress.first),
    compress_first_p95_ms: percentile(compress.first, 95),
    compress_first_from_cache: compress.firstFromCache,
    compress_cached_p50_ms: median(compress.cached),
    compress_cached_p95_ms: percentile(compress.cached, 95),
    compress_second_not_cached: compress.notCached.length,
  }),
);
