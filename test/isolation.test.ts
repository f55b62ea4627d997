/**
 * Tenant isolation across every tenancy and memory route: two organizations × two
 * namespaces × keys of each permission. A foreign credential gets 403 or 404 and exactly
 * what it would get for an id that does not exist (so nothing about the target leaks);
 * a key lacking the permission gets 403; afterwards the target tenant is unchanged.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Permission } from '../src/shared/actor.ts';
import { startApp, testStores, type TestApp } from './harness.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from './factories.ts';
import { addMemory } from './memory-helpers.ts';
import { assertEnvelope } from './auth-kit.ts';

const SECRET = `zebra-${randomBytes(4).toString('hex')}`;

/** The ids a route acts on: the real ones of namespace A1, or made-up twins. */
interface Target {
  mem: string;
  ns: string;
  key: string;
  user: string;
  ext: string;
  batch: string;
  schema: string;
}

interface Route {
  label: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: (x: Target) => string;
  payload?: (x: Target) => unknown;
  permission: Permission;
  /** How a foreign credential fails: a resource (403/404) or a list/search showing nothing of A1. */
  kind: 'resource' | 'list' | 'search';
}

const routes: Route[] = [
  {
    label: 'GET /v1/memory/:id',
    method: 'GET',
    url: (x) => `/v1/memory/${x.mem}`,
    permission: 'read',
    kind: 'resource',
  },
  {
    label: 'PUT /v1/memory/:id',
    method: 'PUT',
    url: (x) => `/v1/memory/${x.mem}`,
    payload: () => ({ content: 'overwritten' }),
    permission: 'write',
    kind: 'resource',
  },
  {
    label: 'DELETE /v1/memory/:id',
    method: 'DELETE',
    url: (x) => `/v1/memory/${x.mem}`,
    permission: 'delete',
    kind: 'resource',
  },
  {
    label: 'DELETE /v1/memory/all',
    method: 'DELETE',
    url: (x) => `/v1/memory/all?external_user_id=${x.ext}&namespace_id=${x.ns}`,
    permission: 'delete',
    kind: 'resource',
  },
  {
    label: 'POST /v1/memory (into A1)',
    method: 'POST',
    url: () => '/v1/memory',
    payload: (x) => ({ content: 'planted', external_user_id: x.ext, namespace_id: x.ns }),
    permission: 'write',
    kind: 'resource',
  },
  {
    label: 'POST /v1/memory/batch (into A1)',
    method: 'POST',
    url: () => '/v1/memory/batch',
    payload: (x) => ({ memories: [{ content: 'planted' }], external_user_id: x.ext, namespace_id: x.ns }),
    permission: 'write',
    kind: 'resource',
  },
  {
    label: 'GET /v1/memory/status/:id',
    method: 'GET',
    url: (x) => `/v1/memory/status/${x.mem}`,
    permission: 'read',
    kind: 'resource',
  },
  {
    label: 'GET /v1/memory/batch/status/:id',
    method: 'GET',
    url: (x) => `/v1/memory/batch/status/${x.batch}`,
    permission: 'read',
    kind: 'resource',
  },
  {
    label: 'POST /v1/memory/search',
    method: 'POST',
    url: () => '/v1/memory/search',
    payload: (x) => ({ query: SECRET, external_user_id: x.ext }),
    permission: 'read',
    kind: 'search',
  },
  { label: 'GET /v1/namespace', method: 'GET', url: () => '/v1/namespace', permission: 'read', kind: 'list' },
  {
    label: 'GET /v1/namespace/:id',
    method: 'GET',
    url: (x) => `/v1/namespace/${x.ns}`,
    permission: 'read',
    kind: 'resource',
  },
  {
    label: 'PUT /v1/namespace/:id',
    method: 'PUT',
    url: (x) => `/v1/namespace/${x.ns}`,
    payload: () => ({ is_active: false }),
    permission: 'write',
    kind: 'resource',
  },
  {
    label: 'DELETE /v1/namespace/:id',
    method: 'DELETE',
    url: (x) => `/v1/namespace/${x.ns}`,
    permission: 'delete',
    kind: 'resource',
  },
  {
    label: 'POST /v1/namespace/:id/api-keys',
    method: 'POST',
    url: (x) => `/v1/namespace/${x.ns}/api-keys`,
    payload: () => ({ name: 'intruder', permissions: ['read'] }),
    permission: 'write',
    kind: 'resource',
  },
  {
    label: 'GET /v1/namespace/:id/api-keys',
    method: 'GET',
    url: (x) => `/v1/namespace/${x.ns}/api-keys`,
    permission: 'read',
    kind: 'resource',
  },
  {
    label: 'DELETE /v1/namespace/:id/api-keys/:key',
    method: 'DELETE',
    url: (x) => `/v1/namespace/${x.ns}/api-keys/${x.key}`,
    permission: 'delete',
    kind: 'resource',
  },
  {
    label: 'GET /v1/schemas/:id',
    method: 'GET',
    url: (x) => `/v1/schemas/${x.schema}`,
    permission: 'read',
    kind: 'resource',
  },
  {
    label: 'PUT /v1/schemas/:id',
    method: 'PUT',
    url: (x) => `/v1/schemas/${x.schema}`,
    payload: () => ({ description: 'defaced' }),
    permission: 'write',
    kind: 'resource',
  },
  {
    label: 'DELETE /v1/schemas/:id',
    method: 'DELETE',
    url: (x) => `/v1/schemas/${x.schema}`,
    permission: 'delete',
    kind: 'resource',
  },
  {
    label: 'GET /v1/user',
    method: 'GET',
    url: (x) => `/v1/user?external_id=${x.ext}`,
    permission: 'read',
    kind: 'list',
  },
  { label: 'GET /v1/user/:id', method: 'GET', url: (x) => `/v1/user/${x.user}`, permission: 'read', kind: 'resource' },
  {
    label: 'PUT /v1/user/:id',
    method: 'PUT',
    url: (x) => `/v1/user/${x.user}`,
    payload: () => ({ email: 'evil@example.com' }),
    permission: 'write',
    kind: 'resource',
  },
  {
    label: 'DELETE /v1/user/:id',
    method: 'DELETE',
    url: (x) => `/v1/user/${x.user}`,
    permission: 'delete',
    kind: 'resource',
  },
  {
    label: 'DELETE /v1/user?external_user_id',
    method: 'DELETE',
    url: (x) => `/v1/user?external_user_id=${x.ext}`,
    permission: 'delete',
    kind: 'resource',
  },
];

/** Users are organization-wide identities, readable and writable by any key of the organization (docs/tenancy.md). */
const ORG_WIDE_USER_ROUTES = new Set(['GET /v1/user', 'GET /v1/user/:id', 'PUT /v1/user/:id']);

/** Session tokens go in X-Session-Token, keys in X-API-Key. */
const credential = (secret: string): Record<string, string> =>
  secret.startsWith('st_') ? { 'x-session-token': secret } : { 'x-api-key': secret };

/**
 * Every table that holds tenant data, as text. Left out: the query log (searches are
 * logged for the searcher's own organization) and when a key was last used.
 */
async function snapshot(t: TestApp): Promise<string> {
  const tables: [string, string][] = [
    ['organizations', 'id'],
    ['namespaces', 'id'],
    ['users', 'id'],
    ['sessions', 'id'],
    ['memories', 'id'],
    ['memory_chunks', 'id'],
    ['jobs', 'id'],
    ['events', 'id'],
    ['webhook_deliveries', 'id'],
    ['graph_schemas', 'id'],
    ['graph_nodes', 'id'],
    ['graph_edges', 'id'],
    ['memory_nodes', 'memory_id, node_id'],
  ];
  const out: Record<string, unknown> = {};
  for (const [table, order] of tables) out[table] = await t.db.query(`SELECT * FROM ${table} ORDER BY ${order}`);
  out.api_keys = (await t.db.query('SELECT * FROM api_keys ORDER BY id')).map(({ last_used_at: _l, ...k }) => k);
  return JSON.stringify(out);
}

for (const store of testStores) {
  describe(`tenant isolation [${store.name}]`, () => {
    let t: TestApp;
    let a1: Target;
    const keys: Record<string, string> = {};
    /** carol: an end user of A with a session token of her own (issue #17, finding 6). */
    let carol: { token: string; userId: string };
    let otherOrgId: string;
    before(async () => {
      t = await startApp(store);
      const nsA1 = await makeNamespace(t.db, t.orgId, 'A1');
      const nsA2 = await makeNamespace(t.db, t.orgId, 'A2');
      const b = await makeOrg(t.db);
      const nsB1 = await makeNamespace(t.db, b.organizationId, 'B1');
      const target = await makeKey(t.db, t.orgId, { namespaceId: nsA1 });
      const mem = await addMemory(t, {
        content: `The ${SECRET} lives in A1.`,
        external_user_id: 'alice',
        namespace_id: nsA1,
      });
      const batch = await t.app.inject({
        method: 'POST',
        url: '/v1/memory/batch',
        headers: { 'x-api-key': t.key },
        payload: { memories: [{ content: 'A1 batch memory.' }], external_user_id: 'alice', namespace_id: nsA1 },
      });
      const [alice] = await t.db.query<{ id: string }>(
        "SELECT id FROM users WHERE organization_id = $1 AND external_id = 'alice'",
        [t.orgId],
      );
      // Another tenant has a memory with the same words.
      await addMemory(t, { content: `B's own ${SECRET} note.`, external_user_id: 'bob', namespace_id: nsB1 }, b.key);
      const schema = await t.app.inject({
        method: 'POST',
        url: '/v1/schemas',
        headers: { 'x-api-key': target.key },
        payload: { name: 'A1 schema', node_types: { Project: { properties: { name: { type: 'string' } } } } },
      });
      assert.equal(schema.statusCode, 201, schema.body);
      a1 = {
        mem,
        ns: nsA1,
        key: target.id,
        user: alice.id,
        ext: 'alice',
        batch: batch.json().batch_id,
        schema: schema.json().data.id,
      };
      keys['B org key'] = b.key;
      otherOrgId = b.organizationId;
      carol = await makeSession(t.db, t.orgId, 'carol');
      keys['B1 namespace key'] = (await makeKey(t.db, b.organizationId, { namespaceId: nsB1 })).key;
      keys['B end-user session'] = (await makeSession(t.db, b.organizationId, 'bob')).token;
      keys['A2 namespace key'] = (await makeKey(t.db, t.orgId, { namespaceId: nsA2 })).key;
      keys['A1 full key'] = (await makeKey(t.db, t.orgId, { namespaceId: nsA1 })).key;
      for (const p of ['read', 'write', 'delete'] as Permission[]) {
        keys[`A1 ${p}-only key`] = (await makeKey(t.db, t.orgId, { namespaceId: nsA1, permissions: [p] })).key;
        keys[`A org ${p}-less key`] = (
          await makeKey(t.db, t.orgId, {
            permissions: (['read', 'write', 'delete'] as Permission[]).filter((q) => q !== p),
          })
        ).key;
      }
      before_ = await snapshot(t);
    });
    after(() => t.close());

    let before_: string;
    /** Every request made with a credential that must not succeed on its target. */
    let attempts = 0;
    let succeeded = 0;
    const send = (r: Route, x: Target, key: string) =>
      t.app.inject({ method: r.method, url: r.url(x), headers: credential(key), payload: r.payload?.(x) as any });
    const attempt = async (r: Route, x: Target, key: string) => {
      attempts++;
      const res = await send(r, x, key);
      // A confined delete that answers 200 having removed nothing is not a success (checked below).
      const removedNothing =
        res.statusCode === 200 && res.json().memories_deleted === 0 && res.json().user_deleted === false;
      if (r.kind === 'resource' && res.statusCode < 300 && !removedNothing) succeeded++;
      return res;
    };
    /** Made-up ids; for a key of A's own organization users stay real (users are organization-wide). */
    const ghost = (sameOrg: boolean): Target => ({
      mem: `ghost-${randomBytes(4).toString('hex')}`,
      ns: `ghost-ns-${randomBytes(4).toString('hex')}`,
      key: 'ghost-key',
      batch: `ghost-batch-${randomBytes(4).toString('hex')}`,
      schema: `ghost-schema-${randomBytes(4).toString('hex')}`,
      user: sameOrg ? a1.user : 'ghost-user',
      ext: sameOrg ? a1.ext : `ghost-${randomBytes(4).toString('hex')}`,
    });

    it('positive control: the A1 key reads its own namespace (so the refusals below are real)', async () => {
      for (const r of routes.filter((x) => x.permission === 'read')) {
        const res = await send(r, a1, keys['A1 full key']);
        assert.equal(res.statusCode, 200, `${r.label}: ${res.body}`);
      }
      const found = await send(
        routes.find((r) => r.kind === 'search')!,
        a1,
        keys['A1 full key'],
      );
      assert.ok(found.body.includes(SECRET));
    });

    for (const who of ['B org key', 'B1 namespace key', 'B end-user session', 'A2 namespace key']) {
      it(`${who}: every route fails like a missing id and shows nothing of A1`, async () => {
        for (const r of routes) {
          if (who === 'A2 namespace key' && ORG_WIDE_USER_ROUTES.has(r.label)) continue;
          const res = await attempt(r, a1, keys[who]);
          const body = res.body;
          if (r.kind === 'resource') {
            if (who === 'A2 namespace key' && r.label.startsWith('DELETE /v1/user')) {
              // Confined to A2: the user (org-wide) is kept and A1's memories are untouched.
              assert.equal(res.statusCode, 200, `${r.label}: ${body}`);
              assert.deepEqual([res.json().memories_deleted, res.json().user_deleted], [0, false]);
              continue;
            }
            assert.ok([403, 404, 422].includes(res.statusCode), `${who} ${r.label}: ${res.statusCode} ${body}`);
            const twin = await send(r, ghost(who.startsWith('A')), keys[who]);
            assert.equal(
              res.statusCode,
              twin.statusCode,
              `${who} ${r.label}: real id ${res.statusCode} vs missing id ${twin.statusCode}`,
            );
          } else if (who === 'B end-user session' && res.statusCode === 403) {
            // An end user's own token may not name another user at all (issue #17): refused outright.
            assertEnvelope(res, 403);
          } else if (r.kind === 'search') {
            assert.equal(res.statusCode, 200, body);
            assert.ok(!body.includes('lives in A1'), `${who} ${r.label} leaked: ${body}`);
          } else {
            assert.equal(res.statusCode, 200, body);
            assert.ok(!body.includes(a1.ns) && !body.includes(a1.user), `${who} ${r.label} leaked: ${body}`);
          }
          assert.ok(!body.includes('lives in A1'), `${who} ${r.label} leaked content`);
        }
      });
    }

    for (const p of ['read', 'write', 'delete'] as Permission[]) {
      it(`keys without "${p}" get 403 on every "${p}" route`, async () => {
        const lacking = Object.keys(keys).filter(
          (k) =>
            (k.startsWith('A1 ') && k.endsWith('-only key') && !k.includes(`${p}-only`)) || k === `A org ${p}-less key`,
        );
        assert.equal(lacking.length, 3);
        for (const r of routes.filter((x) => x.permission === p)) {
          for (const k of lacking) {
            const res = await attempt(r, a1, keys[k]);
            assert.equal(res.statusCode, 403, `${k} ${r.label}: ${res.body}`);
          }
        }
      });
    }

    it('WebSocket status streams refuse every foreign or read-less key', async () => {
      const expected: Record<string, number> = {
        'B end-user session': 4404,
        'B org key': 4404,
        'B1 namespace key': 4404,
        'A2 namespace key': 4404,
        'A1 write-only key': 4403,
        'A1 delete-only key': 4403,
        'A org read-less key': 4403,
      };
      for (const [who, code] of Object.entries(expected)) {
        for (const path of [`/ws/memory-status/${a1.mem}`, `/ws/memory-status/batch/${a1.batch}`]) {
          attempts++;
          const messages: any[] = [];
          let closed!: Promise<number>;
          await t.app.injectWS(
            path,
            { headers: credential(keys[who]) },
            {
              onInit: (ws) => {
                ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
                closed = new Promise((resolve) => ws.on('close', (c) => resolve(c)));
              },
            },
          );
          const got = await closed;
          if (messages.some((m) => m.type === 'status')) succeeded++;
          assert.equal(got, code, `${who} ${path}`);
          assert.deepEqual(
            messages.map((m) => m.type),
            ['error'],
            `${who} ${path}: only an error`,
          );
        }
      }
    });

    /**
     * Finding 6: an end user acting through their own token acts as themselves everywhere;
     * only the application's API key may name other users. Each case names alice (or a user
     * who does not exist yet) with carol's session token alone.
     */
    type Case = [label: string, method: Route['method'], url: (x: Target) => string, payload?: (x: Target) => unknown];
    const search = '/v1/memory/search';
    const endUserRefusals: Case[] = [
      ['search by external_user_id', 'POST', () => search, (x) => ({ query: SECRET, external_user_id: x.ext })],
      ['search by user_id', 'POST', () => search, (x) => ({ query: SECRET, user_id: x.user })],
      ['search a user not created yet', 'POST', () => search, () => ({ query: SECRET, external_user_id: 'nobody' })],
      ['add for alice', 'POST', () => '/v1/memory', (x) => ({ content: 'planted', external_user_id: x.ext })],
      ['add by user_id', 'POST', () => '/v1/memory', (x) => ({ content: 'planted', user_id: x.user })],
      ['add by metadata', 'POST', () => '/v1/memory', (x) => ({ content: 'x', metadata: { external_user_id: x.ext } })],
      ['add for a new user', 'POST', () => '/v1/memory', () => ({ content: 'planted', external_user_id: 'brand-new' })],
      [
        'batch for alice',
        'POST',
        () => '/v1/memory/batch',
        (x) => ({ memories: [{ content: 'p' }], external_user_id: x.ext }),
      ],
      [
        'batch by user_id',
        'POST',
        () => '/v1/memory/batch',
        (x) => ({ memories: [{ content: 'p' }], user_id: x.user }),
      ],
      ['delete all of alice', 'DELETE', (x) => `/v1/memory/all?external_user_id=${x.ext}`],
      ['delete all by user_id', 'DELETE', (x) => `/v1/memory/all?user_id=${x.user}`],
      ['list users filtered to alice', 'GET', (x) => `/v1/user?external_id=${x.ext}`],
      ['get alice', 'GET', (x) => `/v1/user/${x.user}`],
      ['get a user that does not exist', 'GET', () => '/v1/user/ghost-user'],
      ['update alice', 'PUT', (x) => `/v1/user/${x.user}`, () => ({ email: 'evil@example.com' })],
      ['delete alice (client form)', 'DELETE', (x) => `/v1/user/${x.user}`],
      ['delete alice (client form, external)', 'DELETE', (x) => `/v1/user/${x.ext}?is_external=true`],
      ['delete alice (spec form)', 'DELETE', (x) => `/v1/user?external_user_id=${x.ext}`],
      ['create a user', 'POST', () => '/v1/user', () => ({ external_id: 'dave' })],
      ['take another external id', 'PUT', () => `/v1/user/${carol.userId}`, () => ({ external_id: 'ben' })],
      ['create a namespace', 'POST', () => '/v1/namespace', () => ({ name: 'carols' })],
      ['change a namespace', 'PUT', (x) => `/v1/namespace/${x.ns}`, () => ({ is_active: false })],
      ['delete a namespace', 'DELETE', (x) => `/v1/namespace/${x.ns}`],
      ['mint a key', 'POST', (x) => `/v1/namespace/${x.ns}/api-keys`, () => ({ name: 'intruder' })],
      ['list keys', 'GET', (x) => `/v1/namespace/${x.ns}/api-keys`],
      ['revoke a key', 'DELETE', (x) => `/v1/namespace/${x.ns}/api-keys/${x.key}`],
      // Shared (non-personal) graph schemas are the application's to administer; reading stays open.
      ['create an organization schema', 'POST', () => '/v1/schemas', () => ({ name: 'carols' })],
      ['create a workspace schema', 'POST', () => '/v1/schemas', () => ({ name: 'carols', scope: 'workspace' })],
      ['create a namespace schema', 'POST', () => '/v1/schemas', (x) => ({ name: 'carols', namespace_id: x.ns })],
      ['change a namespace schema', 'PUT', (x) => `/v1/schemas/${x.schema}`, () => ({ description: 'defaced' })],
      ['delete a namespace schema', 'DELETE', (x) => `/v1/schemas/${x.schema}`],
    ];

    it('an end-user session token naming another user gets 403 on every route that takes a user', async () => {
      const session = () => ({ 'x-session-token': carol.token });
      for (const [label, method, url, payload] of endUserRefusals) {
        attempts++;
        const res = await t.app.inject({ method, url: url(a1), headers: session(), payload: payload?.(a1) as any });
        if (res.statusCode < 300) succeeded++;
        assert.equal(res.statusCode, 403, `${label}: ${res.statusCode} ${res.body}`);
        assert.match(assertEnvelope(res, 403).error, /API key/, label);
        assert.ok(!res.body.includes('lives in A1'), `${label} leaked: ${res.body}`);
      }
      // An item of a batch naming alice is refused in its slot (the others would be stored).
      attempts++;
      const item = await t.app.inject({
        method: 'POST',
        url: '/v1/memory/batch',
        headers: session(),
        payload: { memories: [{ content: 'planted', external_user_id: a1.ext }] },
      });
      assert.equal(item.statusCode, 422, item.body);
      assert.deepEqual(
        item.json().errors.map((e: { index: number; code: number }) => [e.index, e.code]),
        [[0, 403]],
      );
      // Listing users shows carol only; her own search sees nothing of alice.
      const list = await t.app.inject({ url: '/v1/user', headers: session() });
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(
        list.json().data.map((u: { user_id: string }) => u.user_id),
        [carol.userId],
      );
      const own = await t.app.inject({
        method: 'POST',
        url: '/v1/memory/search',
        headers: session(),
        payload: { query: SECRET },
      });
      assert.equal(own.statusCode, 200, own.body);
      assert.ok(!own.body.includes('lives in A1'), own.body);
    });

    it("an end-user session sees no status of another user's memory or batch: 404 as for an unknown id", async () => {
      const session = { 'x-session-token': carol.token };
      const paths = (x: Target) => [`/v1/memory/status/${x.mem}`, `/v1/memory/batch/status/${x.batch}`];
      const [real, twin] = [paths(a1), paths(ghost(true))];
      for (const [i, url] of real.entries()) {
        attempts++;
        const res = await t.app.inject({ url, headers: session });
        if (res.statusCode < 300) succeeded++;
        const missing = await t.app.inject({ url: twin[i], headers: session });
        assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
        assert.equal(missing.statusCode, 404);
        assert.deepEqual({ ...assertEnvelope(res, 404), error: '' }, { ...missing.json(), error: '' });
        // The GET by id gives the same answer for the memory.
        if (i === 0)
          assert.equal((await t.app.inject({ url: `/v1/memory/${a1.mem}`, headers: session })).statusCode, 404);
      }
      for (const path of [`/ws/memory-status/${a1.mem}`, `/ws/memory-status/batch/${a1.batch}`]) {
        attempts++;
        const messages: any[] = [];
        let closed!: Promise<number>;
        await t.app.injectWS(
          path,
          { headers: session },
          {
            onInit: (ws) => {
              ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
              closed = new Promise((resolve) => ws.on('close', (c) => resolve(c)));
            },
          },
        );
        const code = await closed;
        if (messages.some((m) => m.type === 'status')) succeeded++;
        assert.equal(code, 4404, path);
      }
    });

    it('the same credential given twice differently, or a batch naming another organization, is refused', async () => {
      const key = keys['A1 full key'];
      for (const headers of [
        { 'x-api-key': key, authorization: `APIKey ${t.key}` },
        { 'x-session-token': carol.token, authorization: `Session ${keys['B end-user session']}` },
      ]) {
        attempts++;
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/memory/search',
          headers,
          payload: { query: SECRET, external_user_id: a1.ext },
        });
        if (res.statusCode < 300) succeeded++;
        assert.match(assertEnvelope(res, 400).error, /conflicting/i);
      }
      // Batch-level organization_id is checked like an item's: 422 naming the field, nothing stored.
      for (const payload of [
        { memories: [{ content: 'planted' }], organization_id: otherOrgId, external_user_id: a1.ext },
        { memories: [{ content: 'planted', organization_id: otherOrgId, external_user_id: a1.ext }] },
      ]) {
        attempts++;
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/memory/batch',
          headers: { 'x-api-key': t.key },
          payload,
        });
        if (res.statusCode < 300) succeeded++;
        assert.equal(res.statusCode, 422, res.body);
        const problem = res.json().errors?.[0] ?? res.json();
        assert.equal(problem.code, 422);
        assert.deepEqual(problem.details.fields, ['organization_id']);
        assert.match(problem.error, /organization_id/);
      }
    });

    it('afterwards the store is exactly as it was, and no attempted violation succeeded', async (c) => {
      assert.equal(await snapshot(t), before_, 'store snapshot changed');
      c.diagnostic(`attempted violations: ${attempts}; succeeded: ${succeeded}`);
      assert.ok(attempts >= 150, `${attempts} attempts`);
      assert.equal(succeeded, 0);
    });

    it('afterwards A1 is exactly as it was', async () => {
      const [m] = await t.db.query<any>('SELECT content, namespace_id FROM memories WHERE id = $1', [a1.mem]);
      assert.deepEqual(m, { content: `The ${SECRET} lives in A1.`, namespace_id: a1.ns });
      const count = async (sql: string, params: unknown[]) =>
        (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;
      assert.equal(await count('memories WHERE namespace_id = $1', [a1.ns]), 2);
      const [ns] = await t.db.query<any>('SELECT is_active FROM namespaces WHERE id = $1', [a1.ns]);
      assert.equal(ns.is_active, true);
      const [k] = await t.db.query<any>('SELECT is_active FROM api_keys WHERE id = $1', [a1.key]);
      assert.equal(k.is_active, true);
      assert.equal(await count("api_keys WHERE namespace_id = $1 AND name = 'intruder'", [a1.ns]), 0);
      const [u] = await t.db.query<any>('SELECT email FROM users WHERE id = $1', [a1.user]);
      assert.ok(u, 'alice still exists');
      assert.notEqual(u.email, 'evil@example.com');
    });

    it('an end user acts as themselves; the application key, alone or beside the token, may name others', async () => {
      const session = { 'x-session-token': carol.token };
      const call = (method: Route['method'], url: string, headers: Record<string, string>, payload?: unknown) =>
        t.app.inject({ method, url, headers, payload: payload as any });
      // Three ways of naming herself; three pages, since the same words twice would be one memory.
      for (const [page, body] of [{}, { external_user_id: 'carol' }, { user_id: carol.userId }].entries()) {
        const res = await call('POST', '/v1/memory', session, {
          content: `Carol's ${SECRET} diary, page ${page}.`,
          ...body,
        });
        assert.equal(res.statusCode, 200, res.body);
      }
      const mine = await call('POST', '/v1/memory/search?max_memories=20', session, {
        query: SECRET,
        external_user_id: 'carol',
      });
      assert.equal(mine.statusCode, 200, mine.body);
      assert.equal(mine.json().data.memories.filter((m: any) => m.content.includes('diary')).length, 3);
      assert.ok(!mine.body.includes('lives in A1'));
      assert.equal((await call('GET', `/v1/user/${carol.userId}`, session)).statusCode, 200);
      assert.equal(
        (await call('PUT', `/v1/user/${carol.userId}`, session, { email: 'c@example.com' })).statusCode,
        200,
      );
      const gone = await call('DELETE', `/v1/memory/all?external_user_id=carol`, session);
      assert.equal(gone.statusCode, 200, gone.body);
      assert.equal(gone.json().total_successful, 3);
      // The application's key beside carol's token may still name alice (the token names the default user).
      const both = await call(
        'POST',
        '/v1/memory/search',
        { 'x-api-key': t.key, ...session },
        {
          query: SECRET,
          external_user_id: a1.ext,
        },
      );
      assert.equal(both.statusCode, 200, both.body);
      assert.ok(both.body.includes('lives in A1'));
      // The same key given twice identically is one credential.
      const twice = await call('GET', '/me', { 'x-api-key': t.key, authorization: `APIKey ${t.key}` });
      assert.equal(twice.statusCode, 200, twice.body);
    });
  });
}
