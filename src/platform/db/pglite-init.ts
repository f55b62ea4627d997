/**
 * A new embedded store's cluster is created in a short-lived child process.
 *
 * PGlite's initdb grows its WASM heap to ~700 MB, and a WASM memory never shrinks: a server
 * that created its store in-process sat at ~950 MB for its whole life, against ~450 MB for the
 * same server started on the existing store. A child process returns all of it when it exits.
 * The child builds the cluster in a temporary folder that is renamed into place, so a start
 * killed half-way leaves no half-made cluster behind (the next start makes it again).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT_DIR } from '../root.ts';

const run = promisify(execFile);
const CHILD = path.join(ROOT_DIR, 'src', 'platform', 'db', 'pglite-init.mjs');

/**
 * Create the cluster `pgDir` in a child process when there is no folder yet (or an empty one).
 * A folder with files but no cluster is left to PGlite, as before: never delete what we did not make.
 * The caller holds the data directory's lock.
 */
export async function initClusterApart(pgDir: string): Promise<void> {
  if (fs.existsSync(pgDir) && fs.readdirSync(pgDir).length > 0) return;
  const tmp = `${pgDir}.init-${process.pid}`;
  clear(tmp); // left by a start that died here
  try {
    await run(process.execPath, [CHILD, tmp], { cwd: ROOT_DIR, maxBuffer: 16 << 20 });
  } catch (err) {
    clear(tmp);
    const e = err as Error & { stderr?: string };
    throw new Error(`Creating the embedded store in ${pgDir} failed: ${e.stderr?.trim() || e.message}`, { cause: err });
  }
  clear(pgDir); // empty, see above
  fs.renameSync(tmp, pgDir);
}

/** Remove `p` if it is there; what cannot be removed makes the child's own error, which is reported. */
function clear(p: string): void {
  try {
    fs.rmSync(p, { recursive: true, force: true });
  } catch {
    // e.g. a parent that is not a folder: the child fails on it with a clearer message
  }
}
