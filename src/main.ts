import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger } from './platform/log.ts';
import { openDb, type Db, type Row } from './platform/db/index.ts';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78); // EX_CONFIG
  }
  throw err;
}
const log = createLogger(config.LOG_LEVEL);

/** Start-up failed (a store that does not open included): say why and end. */
function fail(err: unknown): never {
  log.fatal({ err }, err instanceof Error ? err.message : 'start-up failed');
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}

/**
 * The store as the app sees it while it opens: calls wait until it is open and the first
 * organization exists (so a bootstrap key works from the first request); a ping fails at
 * once, so /ready answers 503 until then. It lets the port open before the store has.
 */
function storeWhenOpen(kind: Db['kind'], open: Promise<Db>): Db {
  let db: Db | undefined;
  open.then(
    (d) => (db = d),
    () => undefined, // start() ends the process
  );
  return {
    kind,
    query: async <T extends object = Row>(sql: string, params?: unknown[]) => (await open).query<T>(sql, params),
    exec: async (sql) => (await open).exec(sql),
    transaction: async (fn) => (await open).transaction(fn),
    ping: () => (db ? db.ping() : Promise.reject(new Error('the store is still opening'))),
    listen: async (channel, fn) => (await open).listen(channel, fn),
    close: async () => (await open).close(),
  };
}

/**
 * Start-up order, so the port answers early (`npm run bench:startup` measures it):
 * 1. the store starts opening (PGlite: 1.5–2 s in a thread of its own, then migrations and
 *    the first organization) while this thread loads the rest of the code (~1 s: imported
 *    here rather than at the top, so both run at once);
 * 2. the app is built over the opening store and the port opens: /health answers, /ready
 *    answers 503 until the store is open, then 200;
 * 3. the worker starts, then search warms up (models loaded, vector indexes checked), after
 *    the store so as not to compete with it for the CPU; /ready says when search is warm. A
 *    request needing a model before that loads it itself.
 */
async function start() {
  const t0 = performance.now();
  const opening = openDb(config);
  const imports = Promise.all([
    import('./modules/organizations/index.ts'),
    import('./app.ts'),
    import('./platform/models/index.ts'),
    import('./retention.ts'),
  ]);
  const store = Promise.all([opening, imports]).then(async ([db, [{ bootstrap }]]) => {
    await bootstrap(db, { bootstrapKey: config.BOOTSTRAP_API_KEY, dataDir: config.DATA_DIR, log });
    return db;
  });
  store.catch(fail); // at once, even after the port opened
  const [, { buildApp, buildWorker, searchWarmUp }, { embeddersFromConfig }, { startMaintenance }] = await imports;
  const kind = config.DATABASE_URL ? 'postgres' : 'pglite'; // as openDb chooses
  const db = storeWhenOpen(kind, store);
  // One process owns an embedded store, so its worker runs here whatever ROLES says.
  const roles = kind === 'pglite' ? [...new Set([...config.ROLES, 'worker' as const])] : config.ROLES;
  if (kind === 'pglite' && !config.ROLES.includes('worker'))
    log.warn('PGlite: the worker runs in the server process (ROLES is for PostgreSQL)');
  // One set of models per process: the worker's semantic matching reuses the API's (and its cache).
  const models = embeddersFromConfig(config);
  const warmUp = roles.includes('api') ? searchWarmUp({ db, log }, models) : null;
  const app = warmUp ? await buildApp({ config, db, log, models, warmUp }) : null;
  const worker = roles.includes('worker') ? buildWorker({ config, db, log, models }) : null;
  let stopMaintenance: (() => void) | null = null;

  // Signals are handled from before the port opens: /health answers as soon as it does (an
  // orchestrator may stop us then), and a SIGTERM before the handler existed killed the
  // process without closing the store. A signal during start-up lets it finish, then stops.
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await started;
    // The worker first: jobs in hand finish (or are handed back) while the store is open.
    stopMaintenance?.();
    await worker?.stop();
    await app?.close();
    // Ending a model thread while ONNX Runtime creates its session aborts the whole process
    // (SIGABRT, "terminate called after throwing an instance of 'Napi::Error'"): let the warm-up finish.
    await warmUp?.start().catch(() => undefined);
    await models.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  if (app) await app.listen({ port: config.PORT, host: config.HOST });
  const listenMs = Math.round(performance.now() - t0);
  await store;
  const storeMs = Math.round(performance.now() - t0);
  await worker?.start();
  stopMaintenance = worker ? startMaintenance(db, config, log) : null;
  const startupMs = Math.round(performance.now() - t0);
  log.info({ store: kind, roles, startup_ms: startupMs, listen_ms: listenMs, store_ms: storeMs }, 'Engram started');
  ready();
  warmUp?.start().then(
    () => log.info({ warmup_ms: warmUp.status().warmup_ms }, 'Search ready: embedding models loaded'),
    (err: unknown) => {
      if (!stopping) log.error({ err }, 'Loading the embedding models failed (/ready reports it)');
    },
  );
}

start().catch(fail);
