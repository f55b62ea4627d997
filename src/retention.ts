import type { Config } from './config.ts';
import type { Db } from './platform/db/index.ts';
import type { Logger } from './platform/log.ts';
import { pruneEvents } from './platform/events/index.ts';
import { pruneCompletedJobs } from './platform/jobs/index.ts';
import { pruneTombstones } from './modules/portability/index.ts';
import { pruneDeliveries } from './modules/webhooks/index.ts';
import { pruneTelemetry } from './modules/telemetry/index.ts';
import { pruneIdempotencyKeys } from './platform/http/idempotency.store.ts';
import { autovacuumPass, needsOwnAutovacuum } from './platform/db/vacuum.ts';

const HOUR = 3_600_000;
/** How often tables are checked against autovacuum's thresholds where we do its work (its own naptime: a minute). */
const AUTOVACUUM_MS = 10_000;

/**
 * Retention, run by every worker process once an hour (the deletes are idempotent, so several
 * workers doing it is harmless): completed jobs, memory lifecycle events, finished webhook
 * deliveries, telemetry events, sync tombstones and Idempotency-Key answers (24 h) past their
 * retention. Without it those tables grow forever.
 * On a store without autovacuum (PGlite, or a server with it switched off), every
 * `autovacuumMs` (not at start-up), the tables that changed enough since their last vacuum or
 * analyse get one, as autovacuum would do.
 */
export function startMaintenance(
  db: Db,
  config: Config,
  log: Logger,
  everyMs = HOUR,
  autovacuumMs = AUTOVACUUM_MS,
): () => void {
  const run = async () => {
    try {
      const jobs = await pruneCompletedJobs(db, config.JOBS_RETENTION_DAYS);
      const events = await pruneEvents(db, config.EVENTS_RETENTION_DAYS);
      const deliveries = await pruneDeliveries(db, config.EVENTS_RETENTION_DAYS);
      const telemetry = await pruneTelemetry(db, config.TELEMETRY_RETENTION_DAYS);
      const tombstones = await pruneTombstones(db, config.SYNC_TOMBSTONE_RETENTION_DAYS);
      const idempotencyKeys = await pruneIdempotencyKeys(db);
      if (jobs + events + deliveries + telemetry + tombstones + idempotencyKeys)
        log.info({ jobs, events, deliveries, telemetry, tombstones, idempotencyKeys }, 'retention: pruned');
    } catch (err) {
      log.warn({ err }, 'retention: pruning failed; next try in an hour');
    }
  };
  // Not at start-up: PGlite runs one statement at a time, and the first requests should not
  // wait behind a VACUUM of a store that was never vacuumed. Whether to is asked once: the
  // server's setting changes only with its configuration.
  let vacuuming = false;
  let own: boolean | undefined;
  const autovacuum = async () => {
    if (vacuuming) return;
    vacuuming = true;
    try {
      if (own === undefined) {
        own = await needsOwnAutovacuum(db);
        if (own && db.kind === 'postgres')
          log.info(
            'maintenance: the server runs without autovacuum; vacuuming and analysing our tables by its thresholds',
          );
      }
      if (!own) return;
      const done = await autovacuumPass(db);
      if (done.vacuumed.length || done.analysed.length) log.debug(done, 'maintenance: autovacuum');
    } catch (err) {
      log.warn({ err }, 'maintenance: autovacuum failed; next try at the next check');
    } finally {
      vacuuming = false;
    }
  };
  const timers = [setInterval(() => void run(), everyMs), setInterval(() => void autovacuum(), autovacuumMs)];
  for (const t of timers) t.unref();
  void run();
  return () => timers.forEach(clearInterval);
}
