/**
 * Start-up time: the server started as `npm start` starts it (a child process, default
 * configuration, embedded PGlite store in a temp DATA_DIR, a free port), first on a fresh
 * DATA_DIR, then STARTUP_RUNS times on the same (warm) one. For each start: time from spawn
 * to the first 200 of GET /health, of GET /ready, and until /ready says search is warm
 * (`search.ready`), and the RSS of the server's node process then (VmRSS from /proc, not the
 * npm or tsx wrappers' RSS). Prints the fresh start and the medians of the warm ones, for
 * `npm start`, for `node dist/main.js` (the build without the npm wrapper) and for `node --import tsx src/main.ts`.
 * No assertions.
 *
 *   npm run bench:startup
 *
 * Env: STARTUP_RUNS (warm starts per command, default 5), STARTUP_ROOTS (checkouts to start,
 * comma-separated, default this one: name two to compare them, started in turns),
 * STARTUP_COMMANDS (npm,node,tsx: `npm start`, `node dist/main.js`, `node --import tsx src/main.ts`;
 * `image`: `node dist/main.js` with the environment the container image adds, GLIBC_TUNABLES).
 * "wrap MB" is the RSS of the processes that started the server and wait for it (npm, sh, and on
 * Linux the launcher of scripts/launch.mjs); "PSS" counts pages shared between processes (the node
 * binary, libraries) once, split between them: what the server and its wrappers cost together.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MALLOC_ENV, NODE_FLAGS } from '../scripts/launch.mjs';
import { freePort } from '../test/process.ts';
import { median } from './stats.ts';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Checkouts to start; several are measured in turns, so a busy machine slows them alike. */
const ROOTS = (process.env.STARTUP_ROOTS || HERE).split(',').map((r) => path.resolve(r));
const RUNS = Number(process.env.STARTUP_RUNS || 5);
const COMMANDS = (process.env.STARTUP_COMMANDS || 'npm,node,tsx').split(',');
/** What each command runs: `npm start` (the build, rebuilt if stale), the build alone, the source under tsx. */
const COMMAND_LINES: Record<string, [string, string[]]> = {
  npm: ['npm', ['start', '--silent']],
  node: [process.execPath, ['dist/main.js']],
  image: [process.execPath, [...NODE_FLAGS, 'dist/main.js']],
  tsx: [process.execPath, ['--import', 'tsx', 'src/main.ts']],
};
/** What a command adds to the environment: `image` as the Dockerfile's ENV (glibc malloc, docs/deploy.md). */
const COMMAND_ENV: Record<string, Record<string, string>> = { image: MALLOC_ENV };
const COMMAND_NAMES: Record<string, string> = {
  npm: 'npm start',
  node: 'node dist/main.js',
  image: 'node dist/main.js, GLIBC_TUNABLES and the V8 flags as in the image',
  tsx: 'node --import tsx src/main.ts',
};
const POLL_MS = 10;
const TIMEOUT_MS = 300_000; // a fresh DATA_DIR converts the GloVe table first

interface Start {
  health: number;
  ready: number;
  search: number;
  /** VmRSS of the server process when search was warm, MB. */
  rssMb: number;
  /** Its peak (VmHWM) by then, MB. */
  peakMb: number;
  /** RSS of the processes that started it and wait for it (npm, sh, the launcher), MB. */
  wrappersMb: number;
  /** PSS of the server and of those processes together (shared pages counted once), MB. */
  pssMb: number;
  /** What the server logged: port open and warm-up durations from its own clock. */
  listenMs?: number;
  warmupMs?: number;
}

/** GET `url`: status and parsed body, or null when nothing answers (yet). */
function get(url: string): Promise<{ status: number; body: any } | null> {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON: the status is what counts */
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

/** Poll until `ok` holds; the time since `t0`. */
async function until(t0: number, url: string, ok: (r: { status: number; body: any }) => boolean, alive: () => void) {
  for (;;) {
    alive();
    const r = await get(url);
    if (r && ok(r)) return performance.now() - t0;
    if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`${url} not ready after ${TIMEOUT_MS} ms`);
    await new Promise((res) => setTimeout(res, POLL_MS));
  }
}

/** Direct children of `pid` (from /proc; Linux only, as is VmRSS). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let tasks: fs.Dirent[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`, { withFileTypes: true });
  } catch {
    return out; // the process ended
  }
  for (const task of tasks) {
    try {
      out.push(
        ...fs.readFileSync(`/proc/${pid}/task/${task.name}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
      );
    } catch {
      /* the thread ended */
    }
  }
  return out;
}

/** The process running src/main.ts: the deepest node process under `pid` (npm → sh → tsx → node). */
function serverPid(pid: number): number {
  const kids = childrenOf(pid);
  for (const k of kids) {
    const below = serverPid(k);
    if (below) return below;
  }
  let cmd = '';
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 0;
  }
  return /src\/main\.ts|dist\/main\.js|scripts\/start\.mjs/.test(cmd) && /node/.test(cmd.split('\0')[0]) ? pid : 0;
}

/** Every process under `pid`, `pid` included. */
function treeOf(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(treeOf)];
}

/** PSS of process `pid` (smaps_rollup), MB; 0 once it is gone. */
function pssMb(pid: number): number {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** RSS of the processes around the server (npm, sh, the launcher of scripts/launch.mjs), MB. */
function wrappersMb(root: number, server: number): number {
  let sum = 0;
  for (const pid of treeOf(root)) {
    if (pid === server) continue;
    try {
      sum += memoryMb(pid).rss;
    } catch {
      /* ended */
    }
  }
  return sum;
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function launch(root: string, command: string, env: Record<string, string>): ChildProcess {
  const [file, args] = COMMAND_LINES[command] ?? COMMAND_LINES.node;
  return spawn(file, args, {
    cwd: root,
    // The default configuration but for where the store lives and the port.
    env: {
      ...process.env,
      ...COMMAND_ENV[command],
      DATABASE_URL: '',
      DATA_DIR: env.DATA_DIR,
      PORT: env.PORT,
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so what it started goes with it
  });
}

/** The server being measured: stopped with us if we are interrupted. */
let running: ChildProcess | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (running?.pid) process.kill(-running.pid, 'SIGTERM');
    process.exit(130);
  });
}

async function startOnce(root: string, command: string, dataDir: string): Promise<Start> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const proc = (running = launch(root, command, { DATA_DIR: dataDir, PORT: String(port) }));
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  const alive = () => {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${out.slice(-4000)}`);
  };
  try {
    const [health, ready] = await Promise.all([
      until(t0, `${base}/health`, (r) => r.status === 200, alive),
      until(t0, `${base}/ready`, (r) => r.status === 200, alive),
    ]);
    // A server without the field (before it existed) loaded its models before opening the port.
    const warm = (body: any) => (body?.search ? body.search.ready === true : true);
    const search = await until(t0, `${base}/ready`, (r) => r.status === 200 && warm(r.body), alive);
    const server = serverPid(proc.pid!);
    const mem = memoryMb(server);
    const logged = (field: string) => {
      const m = new RegExp(`"${field}":(\\d+)`).exec(out);
      return m ? Number(m[1]) : undefined;
    };
    return {
      health,
      ready,
      search,
      rssMb: mem.rss,
      peakMb: mem.peak,
      wrappersMb: wrappersMb(proc.pid!, server),
      pssMb: treeOf(proc.pid!).reduce((sum, pid) => sum + pssMb(pid), 0),
      listenMs: logged('listen_ms'),
      warmupMs: logged('warmup_ms'),
    };
  } finally {
    // SIGTERM to the server itself (it closes the store and exits 0); the wrappers then end.
    try {
      const pid = serverPid(proc.pid!);
      if (pid) process.kill(pid, 'SIGTERM');
      else process.kill(-proc.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const killer = setTimeout(() => process.kill(-proc.pid!, 'SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
    running = null;
  }
}

const f0 = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(0));
const row = (cells: string[]) => cells.map((c, i) => (i ? c.padStart(9) : c.padEnd(26))).join('');
const header = row([
  'start',
  '/health',
  '/ready',
  'search',
  'RSS MB',
  'peak MB',
  'wrap MB',
  'PSS all',
  'listen*',
  'warmup*',
]);
const line = (name: string, s: Start) =>
  row([
    name,
    f0(s.health),
    f0(s.ready),
    f0(s.search),
    f0(s.rssMb),
    f0(s.peakMb),
    f0(s.wrappersMb),
    f0(s.pssMb),
    f0(s.listenMs),
    f0(s.warmupMs),
  ]);
const medianOf = (starts: Start[]): Start => {
  const m = (k: keyof Start) => {
    const v = starts.map((s) => s[k]).filter((x): x is number => x !== undefined);
    return v.length ? median(v) : undefined;
  };
  return {
    health: m('health')!,
    ready: m('ready')!,
    search: m('search')!,
    rssMb: m('rssMb')!,
    peakMb: m('peakMb')!,
    wrappersMb: m('wrappersMb')!,
    pssMb: m('pssMb')!,
    listenMs: m('listenMs'),
    warmupMs: m('warmupMs'),
  };
};

console.log(
  `bench:startup — node ${process.version}, ${os.availableParallelism()} cores, load ` +
    `${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ms from spawn to the first 200 (search: until /ready says search.ready)`,
);
for (const command of COMMANDS) {
  const name = COMMAND_NAMES[command] ?? command;
  const runs = ROOTS.map((root) => ({
    root,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'engram-startup-')),
    fresh: null as Start | null,
    warm: [] as Start[],
  }));
  try {
    for (const r of runs) r.fresh = await startOnce(r.root, command, r.dataDir);
    for (let i = 0; i < RUNS; i++) for (const r of runs) r.warm.push(await startOnce(r.root, command, r.dataDir));
    for (const r of runs) {
      console.log(`\n${name} in ${r.root} (load now ${os.loadavg()[0].toFixed(2)})`);
      console.log(header);
      console.log(line('fresh DATA_DIR', r.fresh!));
      console.log(line(`warm DATA_DIR, median of ${RUNS}`, medianOf(r.warm)));
      const each = (k: keyof Start) => r.warm.map((s) => f0(s[k])).join(' ');
      console.log(`  warm runs: /health ${each('health')}; /ready ${each('ready')}; search ${each('search')}`);
    }
  } finally {
    for (const r of runs) fs.rmSync(r.dataDir, { recursive: true, force: true });
  }
}
console.log('\n* as the server logs them: listen_ms from the start of main() to the port open, warmup_ms of search');
