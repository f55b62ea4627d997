import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger } from './platform/log.ts';
import { openDb } from './platform/db/index.ts';
import { bootstrap } from './modules/organizations/index.ts';
import { buildApp, buildWorker } from './app.ts';
import { embeddersFromConfig } from './platform/models/index.ts';
import { startMaintenance } from './retention.ts';

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

async function start() {
  const t0 = performance.now();
  const db = await openDb(config);
  await bootstrap(db, { bootstrapKey: config.BOOTSTRAP_API_KEY, dataDir: config.DATA_DIR, log });
  // One process owns an embedded store, so its worker runs here whatever ROLES says.
  const roles = db.kind === 'pglite' ? [...new Set([...config.ROLES, 'worker' as const])] : config.ROLES;
  if (db.kind === 'pglite' && !config.ROLES.includes('worker'))
    log.warn('PGlite: the worker runs in the server process (ROLES is for PostgreSQL)');
  // One set of models per process: the worker's semantic matching reuses the API's (and its cache).
  const models = embeddersFromConfig(config);
  const app = roles.includes('api') ? await buildApp({ config, db, log, models }) : null;
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
    await models.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  if (app) await app.listen({ port: config.PORT, host: config.HOST });
  await worker?.start();
  stopMaintenance = worker ? startMaintenance(db, config, log) : null;
  log.info({ store: db.kind, roles, startup_ms: Math.round(performance.now() - t0) }, 'Engram started');
  ready();
}

start().catch((err) => {
  log.fatal({ err }, err instanceof Error ? err.message : 'start-up failed');
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
