import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger } from './platform/log.ts';
import { openDb } from './platform/db/index.ts';
import { bootstrap } from './modules/organizations/bootstrap.ts';
import { buildApp } from './app.ts';

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
  const app = await buildApp({ config, db, log });
  if (config.ROLES.includes('api')) await app.listen({ port: config.PORT, host: config.HOST });
  log.info(
    { store: db.kind, roles: config.ROLES, startup_ms: Math.round(performance.now() - t0) },
    'Engram started',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

start().catch((err) => {
  log.fatal({ err }, err instanceof Error ? err.message : 'start-up failed');
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
