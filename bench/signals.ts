/**
 * Dump every first-stage signal's raw ranked list for every dev query of the three sets at once
 * (SciFact dev and train claims, CoSQA dev, LoCoMo dev), for offline fusion studies
 * (bench/fusion-study.ts): what BM25, the primary dense signal and the secondary dense signal
 * each return (top SIGNALS_DEPTH, raw scores), keyed by the documents' own ids, with the
 * relevant ids beside them. Nothing is fused here, so any fusion can be replayed from the file
 * in milliseconds instead of a search per query and setting.
 *
 * The store is a PostgreSQL database kept between runs (ingest is the slow part: ~15 min for
 * the three corpora on 2 cores); a run finds what an earlier run ingested, per set.
 *
 *   npx tsx bench/signals.ts                 → /tmp/engram-signals.jsonl
 *   SIGNALS_DATABASE_URL=postgres://…/db SIGNALS_OUT=file SIGNALS_DEPTH=200 npx tsx bench/signals.ts
 *
 * A line per query: {set, qid, group (LoCoMo conversation, else the split), category, text,
 * relevant: [ids], lists: {bm25: [[id, score], …], dense: […], dense2: […]}}. A last line per set
 * {set, docs: {id: {len, createdAt}}} lets a study compute document-level features.
 */
import fs from 'node:fs';
import { queryTerms } from '../src/platform/text-analyzer.ts';
import { nearest } from '../src/modules/search/dense.store.ts';
import { lexicalAndDense2 } from '../src/modules/search/signals.store.ts';
import type { SearchScope } from '../src/modules/search/search.store.ts';
import { userDirectory } from '../src/modules/users/index.ts';
import { devSets, docKey, ensureDatabase, ensureIngested, ensureProcessed } from './lib/dev-sets.ts';
import { inProcessStack } from './lib/inprocess.ts';

const BASE = process.env.SIGNALS_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/engram_signals';
const OUT = process.env.SIGNALS_OUT || '/tmp/engram-signals.jsonl';
const DEPTH = Number(process.env.SIGNALS_DEPTH || 200);
const log = (s: string) => console.error(s);

await ensureDatabase(BASE);
const stack = await inProcessStack({ databaseUrl: BASE });
const { db, actor, embedders } = stack;

const out = fs.createWriteStream(OUT);
for (const set of devSets()) {
  await ensureIngested(stack, set, log);
  await ensureProcessed(stack, BASE, log);

  // Memory id → document id, length and time, for every user of the set.
  const rows = await db.query<{ id: string; metadata: Record<string, unknown>; len: number; created_at: Date }>(
    `SELECT m.id, m.metadata, length(m.content) AS len, m.created_at FROM memories m JOIN users u ON u.id = m.user_id
      WHERE u.external_id = ANY($1)`,
    [set.users],
  );
  const key = new Map(rows.map((r) => [r.id, docKey(r.metadata)]));
  const rekey = (list: Map<string, number>) => [...list].map(([id, s]) => [key.get(id) ?? id, s]);

  const t0 = performance.now();
  const queries = set.queries();
  const scopes = new Map<string, SearchScope>();
  for (const q of queries) {
    let scope = scopes.get(q.user);
    if (!scope) {
      const user = await userDirectory.findByExternalId(db, actor.organizationId, q.user);
      if (!user) throw new Error(`no user ${q.user}`);
      scope = {
        organizationId: actor.organizationId,
        namespaceId: null,
        userId: user.id,
        sharedIds: [],
        metadata: null,
      };
      scopes.set(q.user, scope);
    }
    const [v1] = await embedders.query.primary.embed([q.text]);
    const v2 = embedders.query.secondary ? (await embedders.query.secondary.embed([q.text]))[0] : null;
    const [{ lexical, dense2 }, dense] = await Promise.all([
      lexicalAndDense2(db, scope, {
        limit: DEPTH,
        bm25: { terms: queryTerms(q.text), params: { k1: stack.config.SEARCH_BM25_K1, b: stack.config.SEARCH_BM25_B } },
        dense2: v2 && embedders.query.secondary ? { model: embedders.query.secondary.id, vector: v2 } : null,
      }),
      nearest(db, scope, 'embedding', embedders.query.primary.id, v1, DEPTH),
    ]);
    out.write(
      JSON.stringify({
        set: set.name,
        ...q,
        user: undefined,
        lists: { bm25: rekey(lexical.scores), dense: rekey(dense.scores), dense2: rekey(dense2.scores) },
      }) + '\n',
    );
  }
  out.write(
    JSON.stringify({
      set: set.name,
      docs: Object.fromEntries(rows.map((r) => [key.get(r.id), { len: r.len, createdAt: r.created_at }])),
    }) + '\n',
  );
  log(`${set.name}: ${queries.length} queries in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
await new Promise((r) => out.end(r));
await db.close();
log(`wrote ${OUT}`);
