/**
 * Running the server with glibc's malloc told to keep its thresholds fixed. Plain JS: it runs
 * before anything is compiled (scripts/start.mjs, bin/engram.mjs).
 *
 * Why: glibc raises its mmap threshold each time a large block is freed (up to 32 MB), and from
 * then on allocations below it come from heaps that are never given back. A Node process frees
 * large blocks early (files read at start, a WASM module's compilation, a model's session), so the
 * server's threads strand tens of MB that way. Setting any malloc threshold turns that adjustment
 * off; `trim_threshold` at its default value (128 KB) changes nothing else. Measured on the
 * embedded store with 10k memories: 376–415 MB resident without, 324–357 MB with
 * (docs/retrieval.md, "Footprint"). glibc reads the variable when the process starts, so
 * `npm start` and `engram serve` start the server as a child with it when it is missing; this
 * process then only waits (~8 MB of its own memory). The container image sets it in its
 * environment and runs the server directly.
 */
import { spawn } from 'node:child_process';

/** What the server's process should start with (Linux with glibc; ignored elsewhere). */
export const MALLOC_ENV = { GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=131072' };

/**
 * V8 flags of the server's process. A semi-space of 4 MB instead of Node's 16: the young
 * generation of each of the server's isolates (main, store, model threads) grows to three
 * semi-spaces under a burst of requests and keeps those pages resident afterwards. Measured on
 * the embedded store, idle after start, alternating starts: 299–356 MB resident (median 340 of
 * 5) without, 282–319 (median 314 of 3) with 4 MB and 257–322 (median 308 of 5) with 2 MB; at
 * bench:startup npm start's server 353 → 340 MB. 4 MB rather than 2: the two measured alike,
 * and the larger leaves room for bursts. Search p50 at 10k alternating runs 30.0–35.5 vs 31.9–32.5 ms, a batch of
 * 1,000 25.1–25.9 vs 25.6–27.7 s (a loaded host: no difference beyond its noise). The server
 * is I/O glue around the store and the models, not an allocation-bound loop.
 */
export const NODE_FLAGS = ['--max-semi-space-size=4'];

/**
 * When this process lacks MALLOC_ENV (on Linux, unless GLIBC_TUNABLES is set to anything or
 * ENGRAM_RELAUNCH=0), run this same command again as a child with it and NODE_FLAGS (those the
 * command line does not set itself), hand it the signals that
 * stop a server, and exit as it exits: the caller must then do nothing more. Returns false when
 * the caller should run in this process.
 */
export function relaunchWithMallocEnv() {
  if (process.platform !== 'linux' || process.env.GLIBC_TUNABLES !== undefined) return false;
  if (process.env.ENGRAM_RELAUNCH === '0') return false;
  const given = (flag) => process.execArgv.some((a) => a.split('=')[0] === flag.split('=')[0]);
  const flags = [...NODE_FLAGS.filter((f) => !given(f)), ...process.execArgv];
  const child = spawn(process.execPath, [...flags, ...process.argv.slice(1)], {
    env: { ...process.env, ...MALLOC_ENV },
    stdio: 'inherit',
  });
  // Ctrl-C reaches the child from the terminal directly (same process group); a signal sent to
  // this process alone (a process manager's SIGTERM) is handed on. The server ignores a repeat.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (!signal) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal); // end the way the child ended
  });
  child.on('error', (err) => {
    console.error(`[engram] could not start the server process: ${err.message}`);
    process.exit(1);
  });
  return true;
}
