/**
 * examples/chat-agent and examples/document-qa, unmodified, against real server processes (the
 * build, as `npm start` and the image run it): on PGlite one process, on PostgreSQL an API
 * process and a worker process as compose.yaml runs them. What they print and return must show
 * the messages stored and processed, the fact found, the document's answers found.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { run as chatAgent } from '../examples/chat-agent/chat-agent.ts';
import { run as documentQa } from '../examples/document-qa/document-qa.ts';
import { MODELS_CACHE, scratchDatabase, testStores } from './harness.ts';
import { runMain, startServer, type Server } from './process.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

for (const { name } of testStores) {
  describe(`examples [${name}]`, { timeout: 300_000 }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-examples-'));
    const apiKey = `ek_org_${randomBytes(20).toString('hex')}`;
    let api: Server;
    let worker: ReturnType<typeof runMain> | null = null;
    let drop: (() => Promise<void>) | null = null;
    before(async () => {
      const env = { DATA_DIR: dir, BOOTSTRAP_API_KEY: apiKey, MODELS_CACHE_DIR: MODELS_CACHE, WORKER_POLL_MS: '100' };
      if (name === 'pglite') {
        api = await startServer(env);
      } else {
        const scratch = await scratchDatabase();
        drop = scratch.drop;
        api = await startServer({ ...env, DATABASE_URL: scratch.url, ROLES: 'api' });
        worker = runMain({ ...env, DATABASE_URL: scratch.url, ROLES: 'worker' });
      }
    });
    after(async () => {
      if (worker) {
        worker.proc.kill('SIGTERM');
        await worker.exited;
      }
      await api?.stop();
      await drop?.();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const output = () => `${api.output()}${worker ? worker.output() : ''}`;

    it('chat-agent: stores the conversation, compresses it, search finds the fact', async () => {
      const lines: string[] = [];
      const result = await chatAgent({ baseURL: api.url, apiKey, log: (l) => lines.push(l) }).catch((err: Error) => {
        throw new Error(`${err.message}\n${lines.join('\n')}\n${output()}`);
      });
      assert.equal(result.stored, 4);
      assert.equal(lines.filter((l) => /^stored (user|assistant) message \S+$/.test(l)).length, 4, lines.join('\n'));
      assert.ok(lines.includes('processed 2 of 4 messages into memories'), lines.join('\n'));
      assert.match(result.summary, /Porto/);
      assert.match(result.answer ?? '', /Porto/);
      assert.ok(lines.some((l) => /^search ".*": .*Porto/.test(l)));
    });

    it('document-qa: uploads the handbook, waits for it, search answers both questions', async () => {
      const lines: string[] = [];
      const result = await documentQa({ baseURL: api.url, apiKey, log: (l) => lines.push(l) }).catch((err: Error) => {
        throw new Error(`${err.message}\n${lines.join('\n')}\n${output()}`);
      });
      assert.equal(result.status, 'completed');
      assert.match(lines[0], /^uploaded handbook\.md: \S+ \(queued\)$/);
      assert.deepEqual(
        result.answers.map((a) => a.question),
        ['How long is the frame warranty?', 'How long does the battery take to charge?'],
      );
      assert.match(result.answers[0].answer ?? '', /seven-year warranty/, lines.join('\n'));
      assert.match(result.answers[1].answer ?? '', /four and a half hours/, lines.join('\n'));
      assert.ok(
        lines.some((l) => /\nA: [\s\S]*seven-year warranty/.test(l)),
        lines.join('\n'),
      );
    });

    it('the CLI wrappers: no key is exit 2; document-qa with a file and a question of its own', async () => {
      const cli = (file: string, args: string[], env: Record<string, string>) =>
        promisify(execFile)(process.execPath, ['--import', 'tsx', file, ...args], {
          cwd: ROOT,
          env: { ...process.env, ...env },
        });
      await assert.rejects(cli('examples/chat-agent/cli.ts', [], { ENGRAM_API_KEY: '' }), (err: any) => {
        return err.code === 2 && /Set ENGRAM_API_KEY/.test(err.stderr);
      });
      const notes = path.join(dir, 'notes.md');
      fs.writeFileSync(notes, '# Studio notes\n\nThe guest wifi password is heron-forty-two.\n');
      const { stdout } = await cli('examples/document-qa/cli.ts', [notes, 'What is the guest wifi password?'], {
        ENGRAM_API_KEY: apiKey,
        ENGRAM_URL: api.url,
      });
      assert.match(stdout, /^uploaded notes\.md: \S+ \(queued\)\nprocessing completed\nQ: What is the guest wifi/);
      assert.match(stdout, /\nA: [\s\S]*heron-forty-two/, stdout);
    });
  });
}
