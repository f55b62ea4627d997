import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { testStores } from '../../../test/harness.ts';
import { startOAuthRig, type OAuthRig } from '../../../test/oauth-kit.ts';
import { callTool, connectHttp, textOf } from '../../../test/mcp-client.ts';

const text = textOf;
const call = callTool;

/** /mcp with OAuth access tokens (Authorization: Bearer) from a real OpenID provider on loopback. */
for (const store of testStores) {
  describe(`mcp with OAuth Bearer tokens [${store.name}]`, () => {
    let rig: OAuthRig;
    let url: URL;
    const clients: Client[] = [];
    const connect = (token: string) => connectHttp(url, { authorization: `Bearer ${token}` }, clients);

    before(async () => {
      rig = await startOAuthRig(store);
      await rig.t.app.listen({ host: '127.0.0.1', port: 0 });
      url = new URL(`http://127.0.0.1:${(rig.t.app.server.address() as AddressInfo).port}/mcp`);
    });
    after(async () => {
      for (const c of clients) await c.close();
      await rig.close();
    });

    it("a Bearer token writes and reads as its user; another organization's token does not see it", async () => {
      const alice = await connect((await rig.tokens('alice')).access_token as string);
      const added = await call(alice, 'add_memory', { content: 'Alice keeps the spare key under the blue flowerpot.' });
      assert.equal(added.isError, undefined, text(added));
      const id = (added.structuredContent as { data: { memoryId: string }[] }).data[0].memoryId;
      assert.match(text(await call(alice, 'get_memory', { memory_id: id })), /blue flowerpot/);

      // bob's token names the organization acme: alice's memory is not found there.
      const bob = await connect((await rig.tokens('bob')).access_token as string);
      const got = await call(bob, 'get_memory', { memory_id: id });
      assert.equal(got.isError, true);
      assert.match(text(got), /^Engram API error 404: /);
      assert.doesNotMatch(text(await call(bob, 'list_recent_memories', {})), /flowerpot/);

      await assert.rejects(connect('not-a-token'), /401/);
    });
  });
}
