/**
 * Run the `engram` CLI as its own process (`node --import tsx src/cli/main.ts …`), asynchronously
 * so an in-process server keeps answering. ENGRAM_* of the test runner are not passed on.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts')];

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
      [...CLI, ...args],
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
  return spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] });
}
