import type { Config } from './config.ts';
import type { Db } from './platform/db/index.ts';
import type { Logger } from './platform/log.ts';
import { pruneEvents } from './platform/events/index.ts';
import { pruneCompletedJobs } from './platform/jobs/index.ts';
import { pruneDeliveries } from './modules/webhooks/webhooks.store.ts';
import { vacuumEmbedded } from './platform/db/vacuum.ts';

const HOUR = 3_600_000;

/**
 * Retention, run by every worker process once an hour (the deletes are idempotent, so several
 * workers doing it is harmless): completed jobs, memory lifecycle events and finished webhook
 * deliveries past their retention. Without it those tables grow with every memory forever.
 * On PGlite each hourly run (not the one at start-up) then vacuums and analyses, as autovacuum
 * would on PostgreSQL.
 */
export function startMaintenance(db: Db, config: Config, log: Logger, everyMs = HOUR): () => void {
  const run = async (atStart: boolean) => {
    try {
      const jobs = await pruneCompletedJobs(db, config.JOBS_RETENTION_DAYS);
      const events = await pruneEvents(db, config.EVENTS_RETENTION_DAYS);
      const deliveries = await pruneDeliveries(db, config.EVENTS_RETENTION_DAYS);
      if (jobs + events + deliveries) log.info({ jobs, events, deliveries }, 'retention: pruned');
    } catch (err) {
      log.warn({ err }, 'retention: pruning failed; next try in an hour');
    }
    // Not at start-up: PGlite runs one statement at a time, and the first requests should not
    // wait behind a VACUUM of the whole store.
    if (atStart) return;
    try {
      await vacuumEmbedded(db);
    } catch (err) {
      log.warn({ err }, 'maintenance: VACUUM (ANALYZE) failed; next try in an hour');
    }
  };
  const timer = setInterval(() => void run(false), everyMs);
  timer.unref();
  void run(true);
  return () => clearInterval(timer);
}
