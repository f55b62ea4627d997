import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildWorker } from '../app.ts';
import type { Worker } from '../platform/jobs/index.ts';
import { createLogger } from '../platform/log.ts';
import { startApp, testConfig, testStores, type TestApp } from '../../test/harness.ts';
import { waitFor } from '../../test/wait.ts';
import { builtArgs, cliArgs } from '../../test/cli-run.ts';
import { callTool, textOf } from '../../test/mcp-client.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const text = textOf;
const call = callTool;

for (const store of testStores) {
  describe(`mcp over stdio [${store.name}]`, () => {
    let t: TestApp;
    let worker: Worker;
    let baseUrl: string;
    let dir: string;
    const clients: Client[] = [];

    /**
     * The stdio bridge as an agent starts it (bin/engram-mcp.mjs: the build's dist/mcp-main.js): a child
     * process, the SDK's own client on its stdin/stdout.
     */
    async function spawnBridge(env: Record<string, string>, entry = builtArgs('mcp-main')): Promise<Client> {
      const client = new Client({ name: 'engram-test', version: '1.0.0' });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: entry,
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stderr: 'pipe',
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    }

    before(async () => {
      t = await startApp(store);
      worker = buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log: createLogger('silent') });
      await worker.start();
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-mcp-'));
    });
    after(async () => {
      for (const c of clients) await c.close();
      await worker.stop();
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('`engram mcp` is the same bridge, its target from the CLI flags', async () => {
      const c = await spawnBridge({}, [...cliArgs(), '--url', baseUrl, '--api-key', t.key, 'mcp']);
      const added = await call(c, 'add_memory', {
        content: 'The spare key is under the red flowerpot.',
        external_user_id: 'ines',
      });
      assert.equal(added.isError, undefined, text(added));
      const got = await call(c, 'get_memory', {
        memory_id: (added.structuredContent as { data: { memoryId: string }[] }).data[0].memoryId,
      });
      assert.match(text(got), /red flowerpot/);
    });

    it('adds and finds a memory, and uploads a local Markdown file that becomes searchable', async () => {
      const c = await spawnBridge({ ENGRAM_URL: baseUrl, ENGRAM_API_KEY: t.key });
      const tools = (await c.listTools()).tools.map((x) => x.name);
      assert.ok(tools.includes('upload_document') && tools.includes('search_memories'), tools.join());

      const added = await call(c, 'add_memory', {
        content: 'Marta keeps her bicycle in the blue shed behind the bakery.',
        external_user_id: 'marta',
      });
      assert.equal(added.isError, undefined, text(added));
      const id = (added.structuredContent as { data: { memoryId: string }[] }).data[0].memoryId;
      const found = await waitFor(
        async () => {
          const r = await call(c, 'search_memories', { query: 'Where is the bicycle?', external_user_id: 'marta' });
          return text(r).includes(id) && r;
        },
        { timeoutMs: 60_000, what: 'the memory found by search_memories' },
      );
      assert.match(text(found), /blue shed/);

      const file = path.join(dir, 'greenhouse.md');
      fs.writeFileSync(
        file,
        '# Greenhouse notes\n\nThe orchid greenhouse is watered every Tuesday at seven in the morning.\n',
      );
      const uploaded = await call(c, 'upload_document', { path: file, external_user_id: 'marta' });
      assert.equal(uploaded.isError, undefined, text(uploaded));
      assert.match(text(uploaded), /^Uploaded greenhouse\.md: upload /);
      const uploadId = (uploaded.structuredContent as { document_status: { upload_id: string } }).document_status
        .upload_id;
      await waitFor(
        async () => {
          const r = await t.app.inject({ url: `/v1/document/status/${uploadId}`, headers: { 'x-api-key': t.key } });
          return r.json().status === 'completed';
        },
        { timeoutMs: 60_000, what: 'the document processed' },
      );
      const doc = await waitFor(
        async () => {
          const r = await call(c, 'search_memories', {
            query: 'When is the orchid greenhouse watered?',
            external_user_id: 'marta',
          });
          return /every Tuesday/.test(text(r)) && r;
        },
        { timeoutMs: 30_000, what: 'the document found by search_memories' },
      );
      assert.equal(doc.isError, undefined);

      const missing = await call(c, 'upload_document', { path: path.join(dir, 'nope.md') });
      assert.equal(missing.isError, true);
      assert.match(text(missing), /cannot read/);
    });

    it('turns a bad credential and an unreachable server into tool errors', async () => {
      const bad = await spawnBridge({ ENGRAM_URL: baseUrl, ENGRAM_API_KEY: 'ek_org_not_a_key' });
      const r = await call(bad, 'search_memories', { query: 'anything' });
      assert.equal(r.isError, true);
      assert.match(text(r), /^Engram API error 401: /);

      const down = await spawnBridge({ ENGRAM_URL: 'http://127.0.0.1:9', ENGRAM_API_KEY: t.key });
      const d = await call(down, 'get_memory', { memory_id: 'x' });
      assert.equal(d.isError, true);
      assert.match(text(d), /cannot reach the Engram server/);
    });
  });
}
