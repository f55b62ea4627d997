/**
 * Waiting in tests: a plain `sleep`, and `waitFor`, which polls a condition until it holds.
 *
 *   await waitFor(() => received.length === 1);
 *   const job = await waitFor(async () => { const j = await load(id); return j.status === 'done' && j; });
 *   await waitFor(async () => (await status(id)) === 'completed', { timeoutMs: 5000, what: 'memory processed' });
 */

export const sleep = (ms: number): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Falsy = false | 0 | 0n | '' | null | undefined;

export interface WaitForOptions {
  /** Give up (and throw) after this long; default 10 000 ms. */
  timeoutMs?: number;
  /** Pause between two calls of the condition; default 20 ms. */
  intervalMs?: number;
  /** What is awaited, for the timeout error; default: the condition's source text. */
  what?: string;
}

/** The condition's source text on one line, shortened: what a timeout error names by default. */
function describe(fn: (...args: never[]) => unknown): string {
  const text = String(fn).replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/**
 * Call `fn` (sync or async) every `intervalMs` until it returns a truthy value, and resolve to that
 * value; throw when `timeoutMs` has passed without one. An error thrown by `fn` ends the wait at once.
 */
export async function waitFor<T>(
  fn: () => T | PromiseLike<T>,
  options: WaitForOptions = {},
): Promise<Exclude<T, Falsy>> {
  const { timeoutMs = 10_000, intervalMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value as Exclude<T, Falsy>;
    if (Date.now() > deadline) {
      throw new Error(
        `waitFor: timed out after ${timeoutMs} ms waiting for ${options.what ?? describe(fn)} (last value: ` +
          `${String(value)})`,
      );
    }
    await sleep(intervalMs);
  }
}

/**
 * Poll `check` every 50 ms until it holds; after `ms` throw `what` followed by `context()` (the
 * spawned processes' logs, say), so a scenario that stalls says where.
 */
export async function until(
  check: () => Promise<boolean>,
  ms: number,
  what: string,
  context: () => string,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}\n${context()}`);
    await sleep(50);
  }
}
