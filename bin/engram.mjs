#!/usr/bin/env node
/**
 * The `engram` command (package.json "bin"): the compiled CLI (dist/cli.js, from src/cli/main.ts),
 * building dist/ first when src/ changed since the last build (scripts/build.mjs), as `npm start`
 * does for the server. docs/cli.md describes the commands. `engram serve` runs the server as
 * `npm start` does, in a child with glibc's malloc thresholds fixed (scripts/launch.mjs).
 */
import { relaunchWithMallocEnv } from '../scripts/launch.mjs';

if (!(process.argv.slice(2).includes('serve') && relaunchWithMallocEnv())) {
  const { ensureBuilt } = await import('../scripts/build.mjs');
  const ms = ensureBuilt();
  if (ms) console.error(`[engram] compiled src/ into dist/ in ${ms} ms`);
  await import('../dist/cli.js');
}
