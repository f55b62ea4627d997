/**
 * The service in-process for studies that run many settings over one ingest (bench/tune-locomo.ts,
 * bench/signals.ts): a migrated store (PGlite in memory, or a PostgreSQL database kept between
 * runs), the first organization's actor, the memories service (the API's write path minus HTTP),
 * the graph builder, the graph-transform processing step, and a factory for search services
 * with chosen settings.
 */
import { loadConfig, type Config } from '../../src/config.ts';
import { createAuthModule } from '../../src/modules/auth/index.ts';
import { apiKeyStore } from '../../src/modules/api-keys/index.ts';
import { createGraphModule, graphReader } from '../../src/modules/graph/index.ts';
import { createMemoriesModule, memoryReader } from '../../src/modules/memories/index.ts';
import { namespaceAccess } from '../../src/modules/namespaces/index.ts';
import { bootstrap } from '../../src/modules/organizations/bootstrap.ts';
import { createSchemasModule } from '../../src/modules/schemas/index.ts';
import { ensureVectorIndex } from '../../src/modules/search/dense.store.ts';
import { committedRanker, createSearchModule } from '../../src/modules/search/index.ts';
import { createTransformModule, transformProcessing } from '../../src/modules/transform/index.ts';
import { userDirectory } from '../../src/modules/users/index.ts';
import { transformerFromConfig } from '../../src/transform-from-config.ts';
import { createWebhooksModule } from '../../src/modules/webhooks/index.ts';
import { migrate, type Db } from '../../src/platform/db/index.ts';
import { openPglite } from '../../src/platform/db/pglite.ts';
import { openPostgres } from '../../src/platform/db/postgres.ts';
import { createEventPublisher } from '../../src/platform/events/index.ts';
import { createLogger } from '../../src/platform/log.ts';
import { createLocalExtractor } from '../../src/platform/models/extractor.local.ts';
import { embeddersFromConfig } from '../../src/platform/models/index.ts';
import type { Actor } from '../../src/shared/actor.ts';

/** First-stage settings a study varies (the defaults are the service's own config). */
export interface StudySettings {
  bm25?: number;
  dense?: number;
  dense2?: number;
  graph?: number;
  k1?: number;
  b?: number;
  candidates?: number;
  /** Session-neighbour loan (SEARCH_NEIGHBOUR_WEIGHT). */
  nb?: number;
  /** 2: the turn beyond a neighbour borrows too (SEARCH_NEIGHBOUR_HOPS). */
  hops?: 1 | 2;
  /** Named-speaker bonus (SEARCH_WEIGHT_SPEAKER). */
  speaker?: number;
  /** Named-time bonus (SEARCH_WEIGHT_TIME). */
  time?: number;
  /** What a memory that only asks loses (SEARCH_WEIGHT_ASKS). */
  asks?: number;
  /** Words of statement a memory that asks may have (SEARCH_ASKS_STATED_WORDS). */
  asksWords?: number;
  /** Named-speaker bonus of a question asking for many things (SEARCH_WEIGHT_SPEAKER_MANY). */
  speakerMany?: number;
  /** Bonus of a memory naming something for a question asking for many things (SEARCH_WEIGHT_NAMES_MANY). */
  namesMany?: number;
  /** Bonus of a turn recounting what its speaker did, for a question about the past (SEARCH_WEIGHT_RECOUNTS). */
  recounts?: number;
  /** The current statement of what a question asks about goes first (MEMORY_SUPERSEDE=auto; false: off). */
  facts?: boolean;
}

export const STUDY_KEY = 'ek_org_inprocess_study_key_0123456789';

/**
 * Open the stack. With `databaseUrl` the store is that PostgreSQL database (kept: a second run
 * finds what the first ingested); without, a PGlite store in memory.
 */
export async function inProcessStack(opts: { databaseUrl?: string } = {}) {
  const config: Config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' } as Record<string, string>);
  const db: Db = opts.databaseUrl ? await openPostgres(opts.databaseUrl, 4) : await openPglite();
  await migrate(db);
  await bootstrap(db, { bootstrapKey: STUDY_KEY, dataDir: '/tmp/engram-inprocess', log: createLogger('silent') });
  const embedders = embeddersFromConfig(config);
  const { primary, secondary } = embedders.index;
  await ensureVectorIndex(db, 'embedding', primary.id, primary.dimensions);
  if (secondary) await ensureVectorIndex(db, 'embedding2', secondary.id, secondary.dimensions);
  const actor: Actor = await createAuthModule({
    db,
    keys: apiKeyStore,
    users: userDirectory,
  }).authenticator.authenticate({ 'x-api-key': STUDY_KEY });
  const webhooks = createWebhooksModule({ allowPrivate: true, maxAttempts: 1, timeoutMs: 1000 });
  const schemas = createSchemasModule({ db, namespaces: namespaceAccess });
  const extractor = createLocalExtractor();
  const graph = createGraphModule({ db, extractor, schemas });
  const memories = createMemoriesModule({
    db,
    embedders: embedders.index,
    maxContentBytes: 15000,
    publish: createEventPublisher([webhooks.onEvent]),
    webhooks: webhooks.webhooks,
    users: userDirectory,
    namespaces: namespaceAccess,
    planGraph: graph.planFor,
  }).service;

  // The graph transform on the indexing embedder, as the worker makes artifacts (svc_enhanced, svc_max).
  const transformer = transformerFromConfig(config, embedders.index.primary);
  const transform = createTransformModule({ db, transformer, rerankBodyLimit: config.RERANK_BODY_LIMIT_BYTES });
  const transformJobs = transformProcessing({ db, transformer });

  /** A search service over the store with `s`: the fused order, and the svc_enhanced / svc_max providers. */
  const searchWith = (s: StudySettings) =>
    createSearchModule({
      db,
      memories: memoryReader,
      users: userDirectory,
      graph: graphReader,
      embedders: embedders.query,
      weights: {
        bm25: s.bm25 ?? config.SEARCH_WEIGHT_BM25,
        dense: s.dense ?? config.SEARCH_WEIGHT_DENSE,
        dense2: s.dense2 ?? config.SEARCH_WEIGHT_DENSE2,
        // The agentic-graph signal: read only by searches with enable_agentic_graph (graph-signal.ts).
        graph: s.graph ?? config.SEARCH_WEIGHT_GRAPH,
      },
      bm25: { k1: s.k1 ?? config.SEARCH_BM25_K1, b: s.b ?? config.SEARCH_BM25_B },
      candidates: s.candidates ?? config.SEARCH_CANDIDATES,
      neighbourWeight: s.nb ?? config.SEARCH_NEIGHBOUR_WEIGHT,
      neighbourHops: s.hops ?? config.SEARCH_NEIGHBOUR_HOPS,
      speakerWeight: s.speaker ?? config.SEARCH_WEIGHT_SPEAKER,
      speakerManyWeight: s.speakerMany ?? config.SEARCH_WEIGHT_SPEAKER_MANY,
      namesManyWeight: s.namesMany ?? config.SEARCH_WEIGHT_NAMES_MANY,
      recountsWeight: s.recounts ?? config.SEARCH_WEIGHT_RECOUNTS,
      timeWeight: s.time ?? config.SEARCH_WEIGHT_TIME,
      asksWeight: s.asks ?? config.SEARCH_WEIGHT_ASKS,
      asksStatedWords: s.asksWords ?? config.SEARCH_ASKS_STATED_WORDS,
      extractor,
      rerank: { ranker: committedRanker(), graph: transform.searchPort },
      available: { ranker_a: false, ranker_b: false, graph: true },
      rerankDepth: 100,
      factAnswers: s.facts,
    }).service;

  return { config, db, actor, embedders, graph, memories, searchWith, transformStep: transformJobs.step };
}
export type InProcessStack = Awaited<ReturnType<typeof inProcessStack>>;
