/**
 * Run the `engram` CLI as its own process, asynchronously so an in-process server keeps answering.
 * ENGRAM_* of the test runner are not passed on. The CLI runs from the build, as `engram`
 * (bin/engram.mjs) runs it: dist/cli.js, compiled first if a source changed since the last build
 * (under tsx each of the suite's ~80 runs took ~0.6 s more CPU, loading the TypeScript loader).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../scripts/build.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Node's arguments that start a command of the build, dist/<name>.js (the build made current first). */
export function builtArgs(name: 'cli' | 'mcp-main'): string[] {
  ensureBuilt();
  return [path.join(ROOT, 'dist', `${name}.js`)];
}

/** The CLI's (bin/engram.mjs runs the same). */
export const cliArgs = (): string[] => builtArgs('cli');

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const e = { ...process.env };
  for (const k of Object.keys(e)) if (k.startsWith('ENGRAM_')) delete e[k];
  return { ...e, ...extra };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...cliArgs(), ...args],
      { cwd: ROOT, env: env(extra), maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      },
    );
  });
}

/** The CLI as a child process whose exit the caller awaits or forces (the kill test). */
export function spawnCli(args: string[], extra: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [...cliArgs(), ...args], {
    cwd: ROOT,
    env: env(extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
