import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../scripts/build.mjs';
import { MALLOC_ENV, NODE_FLAGS } from '../scripts/launch.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Server {
  proc: ChildProcess;
  url: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Run the server as a real process, as `npm start` runs it: the build of `src/` (dist/main.js,
 * rebuilt first if a source changed) with glibc's malloc setting and V8 flags (scripts/launch.mjs), with
 * `env` on top of ours.
 * SERVER_NODE_ARGS adds node flags to it, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to
 * profile a bench's server (node refuses --cpu-prof in NODE_OPTIONS).
 */
export function runMain(env: Record<string, string>): {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const nodeArgs = [...NODE_FLAGS, ...(process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  ensureBuilt();
  const proc = spawn(process.execPath, [...nodeArgs, 'dist/main.js'], {
    cwd: ROOT,
    env: { ...process.env, ...MALLOC_ENV, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, output: () => out, exited };
}

/** A port that is free right now on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Start a server process and wait until /ready answers 200 (independent of the log level): the
 * port opens before the store has (/health answers at once), and callers use the store next
 * (migrated tables, the bootstrap key). Rejects with the process output if it exits first or
 * takes longer than `timeoutMs`.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 90_000): Promise<Server> {
  // A caller may fix the port (its URL must be known first, e.g. as an OAuth callback).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const r = runMain({ ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  let exitCode: number | null | undefined;
  void r.exited.then((code) => (exitCode = code)); // `exited` never rejects
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}:\n${r.output()}`);
    if (Date.now() > deadline) {
      r.proc.kill('SIGKILL');
      throw new Error(`server did not start in time:\n${r.output()}`);
    }
    const ok = await fetch(`${url}/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((res) => setTimeout(res, 25));
  }
  return {
    proc: r.proc,
    url,
    output: r.output,
    stop: async (signal = 'SIGTERM') => {
      if (r.proc.exitCode === null) r.proc.kill(signal);
      return r.exited;
    },
  };
}
