/**
 * Re-embed chunks whose vectors came from another model than the configured one
 * (after changing EMBEDDER or its model). Run with the same environment as the server:
 *   npm run reembed
 * With the embedded store, stop the server first (the data directory is locked).
 */
import { loadConfig } from '../src/config.ts';
import { openDb } from '../src/platform/db/index.ts';
import { embeddersFromConfig } from '../src/platform/models/index.ts';
import { countStaleVectors, reembedStale } from '../src/modules/search/index.ts';

const config = loadConfig();
const db = await openDb(config);
try {
  const embedders = embeddersFromConfig(config);
  console.log('stale vectors before:', await countStaleVectors(db, embedders.index));
  const n = await reembedStale(db, embedders.index, 64, (done) => process.stdout.write(`\rre-embedded ${done}`));
  console.log(`\nre-embedded ${n} vectors; stale now:`, await countStaleVectors(db, embedders.index));
} finally {
  await db.close();
}
