/**
 * Operator CLI: organizations and key revocation, straight on the database.
 *   npm run admin -- org create <name> | org list | key revoke <key_id>
 * Run with the same environment as the server (DATABASE_URL or DATA_DIR). With the
 * embedded store, stop the server first (the data directory is locked).
 */
import { loadConfig } from '../src/config.ts';
import { openDb } from '../src/platform/db/index.ts';
import { runAdmin } from '../src/modules/organizations/admin.ts';

const config = loadConfig();
const db = await openDb(config);
try {
  process.exitCode = await runAdmin(db, process.argv.slice(2), (line) => console.log(line));
} finally {
  await db.close();
}
