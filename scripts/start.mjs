#!/usr/bin/env node
/**
 * `npm start`: run the compiled server (dist/main.js), building it first when src/ changed
 * since the last build (~0.2 s; scripts/build.mjs). On Linux the server runs in a child started
 * with glibc's malloc thresholds fixed (scripts/launch.mjs: 40–60 MB less resident memory),
 * which this process waits for; elsewhere, or with GLIBC_TUNABLES already set, in this process.
 */
import { relaunchWithMallocEnv } from './launch.mjs';

if (!relaunchWithMallocEnv()) {
  const { ensureBuilt } = await import('./build.mjs');
  const ms = ensureBuilt();
  if (ms) console.error(`[start] compiled src/ into dist/ in ${ms} ms`);
  await import('../dist/main.js');
}
