/**
 * The progress bar of `engram import`, as a person at a terminal sees it: the CLI runs in a
 * pseudo-terminal (util-linux `script`, so its stderr is a real TTY) and what it drew is read
 * back: the acknowledged count of the total, the rate and the ETA. With --json, and without a
 * terminal, nothing but the result is printed. The bar is the CLI's own output, not the store's:
 * one store (PGlite, in this process) is enough.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, testStores, type TestApp } from '../../test/harness.ts';
import { ROOT, cliArgs, runCli } from '../../test/cli-run.ts';

const N = 400;
const CHUNK = 20;

/** A shell word. */
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** Run the CLI with a terminal for stdin, stdout and stderr; everything it wrote, as the terminal got it. */
function runInTerminal(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  const cli = [process.execPath, ...cliArgs(), ...args].map(quote).join(' ');
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENGRAM_')));
  return new Promise((resolve) => {
    execFile(
      'script',
      // -e: the CLI's exit code; -f: flush as it writes; wide enough that no line is cut.
      ['-qfec', `stty cols 200; exec ${cli}`, '/dev/null'],
      { cwd: ROOT, env: { ...clean, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout }),
    );
  });
}

/** An ANSI control sequence (ESC [ … letter), or a line end. */
const ANSI_OR_NEWLINE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]|\r|\n`);

/** The lines the bar drew: each redraw goes back to the line's start and clears to its end (ANSI codes). */
function drawn(output: string): string[] {
  return output
    .split(ANSI_OR_NEWLINE)
    .map((l) => l.trimEnd())
    .filter((l) => l.includes('items/s |'));
}

const BAR = /^ [█░]+ (\d+)\/(\d+) \| (\d+(?:\.\d)?) items\/s \| ETA (\S+)$/;

describe('engram import: the progress bar (pglite)', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let dir: string;
  const jsonl = (name: string, user: string) => {
    const file = path.join(dir, name);
    const lines = Array.from({ length: N }, (_, i) => JSON.stringify({ content: `${user} note ${i}: item ${i * 31}` }));
    fs.writeFileSync(file, lines.join('\n') + '\n');
    return file;
  };

  before(async () => {
    t = await startApp(testStores.find((s) => s.name === 'pglite')!);
    env = { ENGRAM_URL: await t.app.listen({ port: 0, host: '127.0.0.1' }), ENGRAM_API_KEY: t.key };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-progress-'));
  });
  after(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'at a terminal, shows the acknowledged items of the total, the rate and the ETA',
    { timeout: 300_000 },
    async (t) => {
      const file = jsonl('tty.jsonl', 'tty');
      const r = await runInTerminal(['import', file, '--user', 'tty-user', '--chunk-size', String(CHUNK)], env);
      assert.equal(r.code, 0, r.output);
      const lines = drawn(r.output);
      const bars = lines.map((l) => BAR.exec(l));
      assert.ok(bars.length >= 3, `the bar was drawn while the import ran: ${JSON.stringify(lines)}`);
      bars.forEach((m, i) => assert.ok(m, `a bar line: ${JSON.stringify(lines[i])}`));
      const shown = bars.map((m) => ({ done: Number(m![1]), total: Number(m![2]), rate: Number(m![3]), eta: m![4] }));
      assert.ok(
        shown.every((b) => b.total === N && b.done % CHUNK === 0),
        'counts are acknowledged chunks of the total',
      );
      assert.deepEqual(
        shown.map((b) => b.done),
        shown.map((b) => b.done).sort((a, b) => a - b),
        'the count only grows',
      );
      assert.deepEqual({ done: shown[0].done, rate: shown[0].rate }, { done: 0, rate: 0 }, 'it starts at 0 of N');
      assert.equal(shown.at(-1)!.done, N, 'it ends at N of N');
      assert.equal(shown.at(-1)!.eta, '0s', 'nothing left at the end');
      const midway = shown.filter((b) => b.done > 0 && b.done < N);
      assert.ok(midway.length >= 1, `a line drawn midway: ${JSON.stringify(lines)}`);
      for (const b of midway) {
        assert.ok(b.rate > 0, `a rate midway: ${JSON.stringify(b)}`);
        // cli-progress's estimate: seconds, minutes and seconds, or hours and minutes.
        assert.match(b.eta, /^(\d+s|\d+m\d+s|\d+h\d+m)$/, `an ETA midway: ${JSON.stringify(b)}`);
      }
      // The summary follows the bar.
      assert.match(r.output, new RegExp(`jsonl: ${N} imported, 0 already there, 0 refused of ${N} in [\\d.]+ s`));
      t.diagnostic(
        `bar lines: ${lines.length}; last: ${JSON.stringify(lines.at(-1))}; midway: ${JSON.stringify(lines[1])}`,
      );
    },
  );

  it('with --json at a terminal, or without a terminal, prints no bar', { timeout: 300_000 }, async () => {
    const json = await runInTerminal(
      ['--json', 'import', jsonl('json.jsonl', 'json'), '--user', 'json-user', '--chunk-size', String(CHUNK)],
      env,
    );
    assert.equal(json.code, 0, json.output);
    assert.deepEqual(drawn(json.output), []);
    assert.ok(!json.output.includes(String.fromCharCode(27)), 'no cursor movement');
    assert.doesNotMatch(json.output, /ETA|█|░/, 'no bar');
    const summary = JSON.parse(json.output.trim()) as { imported: number; total: number };
    assert.deepEqual({ imported: summary.imported, total: summary.total }, { imported: N, total: N });

    const piped = await runCli(
      ['import', jsonl('piped.jsonl', 'piped'), '--user', 'piped-user', '--chunk-size', '100'],
      env,
    );
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stderr, '', 'nothing on stderr without a terminal');
    assert.match(piped.stdout, new RegExp(`^jsonl: ${N} imported`));
  });
});
