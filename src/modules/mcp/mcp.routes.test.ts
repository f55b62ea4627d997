import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildWorker } from '../../app.ts';
import type { Worker } from '../../platform/jobs/index.ts';
import { createLogger } from '../../platform/log.ts';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { makeOrg, makeSession } from '../../../test/factories.ts';
import { waitFor } from '../../../test/wait.ts';
import { callTool, connectHttp, textOf } from '../../../test/mcp-client.ts';

const text = textOf;
const call = callTool;

for (const store of testStores) {
  describe(`mcp over streamable HTTP [${store.name}]`, () => {
    let t: TestApp;
    let worker: Worker;
    let url: URL;
    const clients: Client[] = [];

    /** An MCP client of /mcp with these headers (the SDK's own client and transport). */
    const connect = (headers: Record<string, string>) => connectHttp(url, headers, clients);

    before(async () => {
      t = await startApp(store);
      worker = buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log: createLogger('silent') });
      await worker.start();
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      url = new URL(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/mcp`);
    });
    after(async () => {
      for (const c of clients) await c.close();
      await worker.stop();
      await t.close();
    });

    it('lists the tools (no upload_document over HTTP), the resource template and the prompt', async () => {
      const c = await connect({ 'x-api-key': t.key });
      const tools = (await c.listTools()).tools.map((x) => x.name).sort();
      assert.deepEqual(tools, [
        'add_memory',
        'add_message',
        'delete_memory',
        'get_memory',
        'get_session_context',
        'graph_lookup',
        'list_recent_memories',
        'search_memories',
        'update_memory',
      ]);
      const search = (await c.listTools()).tools.find((x) => x.name === 'search_memories')!;
      assert.ok(search.description && 'query' in (search.inputSchema.properties ?? {}));
      const templates = (await c.listResourceTemplates()).resourceTemplates;
      assert.deepEqual(
        templates.map((x) => x.uriTemplate),
        ['engram://users/{external_user_id}/memories'],
      );
      assert.deepEqual(
        (await c.listPrompts()).prompts.map((p) => p.name),
        ['remember_context'],
      );
    });

    it('adds, finds, reads, updates, lists and deletes a memory; resource and prompt read it', async () => {
      const c = await connect({ 'x-api-key': t.key });
      const added = await call(c, 'add_memory', {
        content: 'Alice Martin works at Acme Corporation in Lisbon and prefers window seats on flights.',
        external_user_id: 'alice',
        metadata: { topics: ['travel'] },
      });
      assert.equal(added.isError, undefined, text(added));
      const id = (added.structuredContent as { data: { memoryId: string }[] }).data[0].memoryId;
      assert.match(text(added), new RegExp(id));
      await waitFor(
        async () => {
          const r = await t.app.inject({ url: `/v1/memory/status/${id}`, headers: { 'x-api-key': t.key } });
          return JSON.stringify(r.json()).includes('"completed"');
        },
        { timeoutMs: 60_000, what: 'memory processed' },
      );

      const found = await call(c, 'search_memories', {
        query: 'Which seats does Alice prefer?',
        external_user_id: 'alice',
        metadata: { topics: ['travel'] },
        max_memories: 5,
      });
      assert.equal(found.isError, undefined, text(found));
      assert.match(text(found), /window seats/);
      assert.match(text(found), new RegExp(id));
      const none = await call(c, 'search_memories', {
        query: 'window seats',
        external_user_id: 'alice',
        metadata: { topics: ['cooking'] },
      });
      assert.equal(text(none), 'No memories found.');

      const got = await call(c, 'get_memory', { memory_id: id });
      assert.match(text(got), /Acme Corporation/);

      const updated = await call(c, 'update_memory', { memory_id: id, metadata: { category: 'preference' } });
      assert.equal(updated.isError, undefined, text(updated));
      const reread = await t.app.inject({ url: `/v1/memory/${id}`, headers: { 'x-api-key': t.key } });
      assert.equal(reread.json().data.memories[0].metadata.category, 'preference');

      const recent = await call(c, 'list_recent_memories', { external_user_id: 'alice', limit: 5 });
      assert.match(text(recent), /^1 memories, newest first/);
      assert.match(text(recent), new RegExp(id));

      const res = await c.readResource({ uri: 'engram://users/alice/memories' });
      const listed = JSON.parse((res.contents[0] as { text: string }).text) as { id: string }[];
      assert.deepEqual(
        listed.map((m) => m.id),
        [id],
      );

      const prompt = await c.getPrompt({
        name: 'remember_context',
        arguments: { question: 'Where does Alice work?', external_user_id: 'alice' },
      });
      const promptText = (prompt.messages[0].content as { text: string }).text;
      assert.match(promptText, /Acme Corporation/);
      assert.match(promptText, /Question: Where does Alice work\?/);

      const graph = await call(c, 'graph_lookup', { entity: 'alice martin', external_user_id: 'alice' });
      assert.equal(graph.isError, undefined, text(graph));
      const nodes = (graph.structuredContent as { nodes: { name: string; label: string }[] }).nodes;
      assert.ok(
        nodes.some((n) => n.name.toLowerCase() === 'alice martin'),
        text(graph),
      );
      const unknown = await call(c, 'graph_lookup', { entity: 'Zebulon Quixote', external_user_id: 'alice' });
      assert.match(text(unknown), /No entity named/);

      const deleted = await call(c, 'delete_memory', { memory_id: id });
      assert.equal(deleted.isError, undefined, text(deleted));
      const gone = await call(c, 'get_memory', { memory_id: id });
      assert.equal(gone.isError, true);
      assert.match(text(gone), /^Engram API error 404: /);
    });

    it('stores messages and returns the session context', async () => {
      const c = await connect({ 'x-api-key': t.key });
      for (const [role, content] of [
        ['user', 'I am planning a trip to Kyoto in April.'],
        ['assistant', 'April is cherry blossom season in Kyoto.'],
      ]) {
        const r = await call(c, 'add_message', { session_id: 'kyoto-1', role, content, external_user_id: 'bob' });
        assert.equal(r.isError, undefined, text(r));
        assert.match(text(r), /session kyoto-1/);
      }
      const ctx = await call(c, 'get_session_context', { session_id: 'kyoto-1' });
      assert.equal(ctx.isError, undefined, text(ctx));
      assert.match(text(ctx), /Kyoto/);
      assert.equal((ctx.structuredContent as { sessionId: string }).sessionId, 'kyoto-1');
      const compressed = await call(c, 'get_session_context', { session_id: 'kyoto-1', compress: true });
      assert.equal(compressed.isError, undefined, text(compressed));
      assert.equal((compressed.structuredContent as { session_id: string }).session_id, 'kyoto-1');
      const missing = await call(c, 'get_session_context', { session_id: 'no-such-session' });
      assert.equal(missing.isError, true);
      assert.match(text(missing), /404/);
    });

    it('turns bad input into a tool error with the envelope message, not a crash', async () => {
      const c = await connect({ 'x-api-key': t.key });
      const r = await call(c, 'add_memory', { content: 'x', namespace_id: 'no-such-namespace' });
      assert.equal(r.isError, true);
      assert.match(text(r), /^Engram API error (403|404|422): /);
      assert.equal((r.structuredContent as { code: number }).code >= 400, true);
    });

    it('answers 401 in the error envelope without credentials, and with a bad key', async () => {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      };
      for (const headers of [{}, { 'x-api-key': 'ek_org_not_a_key' }] as Record<string, string>[]) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(initialize),
        });
        assert.equal(res.status, 401);
        const body = (await res.json()) as { code: number; status: string; error: string };
        assert.equal(body.code, 401);
        assert.equal(typeof body.error, 'string');
      }
      await assert.rejects(connect({}), /401/);
    });

    it('answers a plain JSON-RPC request (as curl sends it), and 405 to GET and DELETE', async () => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'x-api-key': t.key,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { result: { tools: { name: string }[] } };
      assert.ok(body.result.tools.some((x) => x.name === 'add_memory'));
      for (const method of ['GET', 'DELETE']) {
        const r = await fetch(url, { method, headers: { 'x-api-key': t.key, accept: 'text/event-stream' } });
        assert.equal(r.status, 405);
        assert.equal(((await r.json()) as { code: number }).code, 405);
      }
    });

    it("forwards other credentials: an end user's session token reads only that user's memories", async () => {
      const org = await connect({ 'x-api-key': t.key });
      await call(org, 'add_memory', { content: 'Carol collects vintage typewriters.', external_user_id: 'carol' });
      await call(org, 'add_memory', { content: 'Dave restores old sailboats.', external_user_id: 'dave' });
      const { token } = await makeSession(t.db, t.orgId, 'carol');
      const carol = await connect({ 'x-session-token': token });
      const recent = await call(carol, 'list_recent_memories', {});
      assert.equal(recent.isError, undefined, text(recent));
      assert.match(text(recent), /typewriters/);
      assert.doesNotMatch(text(recent), /sailboats/);
      const other = await call(carol, 'list_recent_memories', { external_user_id: 'dave' });
      assert.doesNotMatch(text(other), /sailboats/);
    });

    it("never shows another tenant's memory", async () => {
      const a = await connect({ 'x-api-key': t.key });
      const added = await call(a, 'add_memory', { content: 'Tenant A secret: the vault code is 4711.' });
      const id = (added.structuredContent as { data: { memoryId: string }[] }).data[0].memoryId;
      const { key } = await makeOrg(t.db);
      const b = await connect({ 'x-api-key': key });
      const got = await call(b, 'get_memory', { memory_id: id });
      assert.equal(got.isError, true);
      assert.match(text(got), /404/);
      const del = await call(b, 'delete_memory', { memory_id: id });
      assert.equal(del.isError, true);
      const search = await call(b, 'search_memories', { query: 'vault code' });
      assert.doesNotMatch(text(search), /4711/);
      const recent = await call(b, 'list_recent_memories', {});
      assert.doesNotMatch(text(recent), /4711/);
      // Still there for its own tenant.
      assert.match(text(await call(a, 'get_memory', { memory_id: id })), /4711/);
    });
  });
}
