/**
 * What every command shares: the server target from the global flags (over the environment),
 * the output mode (human lines or one JSON document for scripts), and the exit codes.
 */
import type { Command } from 'commander';
import { EngramHttpError, targetFromEnv, type EngramTarget } from '../client/http.ts';

/** Exit codes (docs/cli.md): scripts branch on these. */
export const EXIT = { ok: 0, api: 1, usage: 2, unreachable: 3, partial: 4, interrupted: 130 } as const;

export interface GlobalOptions {
  url?: string;
  apiKey?: string;
  token?: string;
  json?: boolean;
}

/** The global flags of `cmd` (declared on the program) over ENGRAM_URL / ENGRAM_API_KEY / ENGRAM_TOKEN. */
export function targetOf(cmd: Command): EngramTarget {
  const o = cmd.optsWithGlobals<GlobalOptions>();
  const env = targetFromEnv();
  return {
    baseUrl: o.url ?? env.baseUrl,
    apiKey: o.apiKey ?? env.apiKey,
    bearer: o.token ?? env.bearer,
  };
}

export const isJson = (cmd: Command) => !!cmd.optsWithGlobals<GlobalOptions>().json;

/** Print `value` as JSON with --json, else the human text `human()` makes. */
export function emit(cmd: Command, value: unknown, human: () => string): void {
  process.stdout.write(isJson(cmd) ? JSON.stringify(value) + '\n' : human() + '\n');
}

/** A command's own usage error (exit 1: the arguments parsed but make no sense). */
export class UsageError extends Error {}

/** A run that finished with some items refused (exit 4). */
export class PartialError extends Error {}

/** True when `err` means the server could not be reached at all (refused, DNS, timeout). */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof EngramHttpError) return false;
  const e = err as { name?: string; cause?: { code?: string } } | null;
  if (e?.name === 'TimeoutError') return true;
  return err instanceof TypeError && !!e?.cause;
}

/** The exit code for an error a command threw, and the line to print on stderr. */
export function failure(err: unknown): { code: number; message: string } {
  if (err instanceof PartialError) return { code: EXIT.partial, message: err.message };
  if (err instanceof EngramHttpError) return { code: EXIT.api, message: `engram: ${err.message}` };
  if (isUnreachable(err)) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    return { code: EXIT.unreachable, message: `engram: cannot reach the server (${why})` };
  }
  return { code: EXIT.api, message: `engram: ${(err as Error)?.message ?? String(err)}` };
}

/** Parse a JSON object option (e.g. --metadata); a usage error otherwise. */
export function jsonObject(text: string | undefined, flag: string): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`${flag} must be a JSON object`);
  return v as Record<string, unknown>;
}
