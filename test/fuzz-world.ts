/**
 * The fuzz test's world: an in-process app on PGlite (no port, `inject`), its errors captured
 * from the log, a tenant with a little data the fuzz may name (a user, memories, a batch, a
 * namespace with a key, a schema), sentinel memories it cannot name, another tenant whose ids
 * it does name, and the checks run on every answer and on the store afterwards.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { buildApp } from '../src/app.ts';
import { bootstrap } from '../src/modules/organizations/bootstrap.ts';
import { testConfig, testStores } from './harness.ts';
import { makeKey, makeOrg, makeRevokedKey, makeSession } from './factories.ts';
import type { IdPools } from './fuzz-requests.ts';

/** A memory that must come out of the fuzz exactly as it went in. */
interface Sentinel {
  id: string;
  content: string;
  orgId: string;
  /** A search for `word` as `externalUserId` must find it. */
  search?: { word: string; externalUserId: string };
}

const CONTENTS = ['Ada prefers tea in the morning.', 'The deploy runs on Fridays.', 'Grace owns the billing service.'];

export type World = Awaited<ReturnType<typeof startWorld>>;

/** Seed data and credentials; `secrets` resolves the `$name` placeholders of a FuzzRequest. */
export async function startWorld() {
  const logs: Record<string, any>[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const db = await testStores[0].open();
  const key = `ek_org_test_${randomBytes(16).toString('hex')}`;
  const admin = `adm_${randomBytes(16).toString('hex')}`;
  const config = testConfig({ BOOTSTRAP_API_KEY: key, ADMIN_API_KEY: admin });
  const { organizationId: orgId } = await bootstrap(db, { bootstrapKey: key, dataDir: config.DATA_DIR, log });
  const app = await buildApp({ config, db, log });
  await app.ready();

  const call = async (method: 'POST' | 'GET', url: string, payload: object | undefined, apiKey: string) => {
    const res = await app.inject({ method, url, payload, headers: { 'x-api-key': apiKey } });
    assert.ok(res.statusCode < 300, `seeding ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const memory = async (apiKey: string, body: object) =>
    (await call('POST', '/v1/memory', body, apiKey)).data[0].memoryId as string;

  /** A tenant's nameable objects, made over HTTP with its key. */
  const seedTenant = async (apiKey: string) => {
    const user = (await call('POST', '/v1/user', { external_id: 'fuzz-user-1', email: 'f@example.com' }, apiKey))
      .user_id as string;
    const ns = (await call('POST', '/v1/namespace', { name: 'fuzz-ns' }, apiKey)).data.objectId as string;
    const nsKey = (await call('POST', `/v1/namespace/${ns}/api-keys`, { name: 'ro', permissions: ['read'] }, apiKey))
      .data;
    const schema = (await call('POST', '/v1/schemas', SCHEMA, apiKey)).data.id as string;
    const memories = [
      await memory(apiKey, { content: CONTENTS[0], external_user_id: 'fuzz-user-1' }),
      await memory(apiKey, { content: CONTENTS[1], namespace_id: ns, metadata: { topics: ['ops'] } }),
      await memory(apiKey, { content: CONTENTS[2], metadata: { customMetadata: { team: 'x' } } }),
    ];
    const batch = await call('POST', '/v1/memory/batch', { memories: [{ content: 'Batch item one.' }] }, apiKey);
    // A search feedback can name (its query-log row).
    const search = await call('POST', '/v1/memory/search', { query: 'tea', external_user_id: 'fuzz-user-1' }, apiKey);
    return {
      searchId: search.search_id as string,
      ids: {
        memory: memories,
        batch: [batch.batch_id],
        namespace: [ns],
        key: [nsKey.objectId],
        user: [user],
        schema: [schema],
      },
      nsKey: nsKey.key as string,
    };
  };

  /** Memories no fuzzed request can legitimately change: their ids and owner are never generated. */
  const seedSentinels = async (apiKey: string, tenant: string): Promise<Sentinel[]> => {
    const word = `lighthouse${randomBytes(3).toString('hex')}`;
    const externalUserId = `sentinel-${randomBytes(6).toString('hex')}`;
    const ns = (await call('POST', '/v1/namespace', { name: `sentinel-${word}` }, apiKey)).data.objectId as string;
    const contents = [`The ${word} keeper logs every ship.`, `Ships pass the ${word} at dawn.`];
    return Promise.all(
      contents.map(async (content, i) => ({
        id: await memory(apiKey, { content, external_user_id: externalUserId, namespace_id: i ? ns : undefined }),
        content,
        orgId: tenant,
        search: { word, externalUserId },
      })),
    );
  };

  const own = await seedTenant(key);
  const sentinels = await seedSentinels(key, orgId);
  const other = await makeOrg(db);
  const foreign = await seedTenant(other.key);
  sentinels.push(...(await seedSentinels(other.key, other.organizationId)));
  // The other tenant's objects are named by the fuzz, but no fuzzed credential may touch them.
  sentinels.push(...foreign.ids.memory.map((id, i) => ({ id, content: CONTENTS[i], orgId: other.organizationId })));
  // The foreign-tenant credential belongs to a third organization: with it, the other
  // tenant's ids are as foreign as with the seeded key.
  const third = await makeOrg(db);
  const session = await makeSession(db, orgId, 'fuzz-user-1');
  const hints = {
    namespace_id: own.ids.namespace,
    user_id: own.ids.user,
    external_user_id: ['fuzz-user-1'],
    schema_id: own.ids.schema,
    frequency_schema_id: own.ids.schema,
    organization_id: [orgId],
    memory_id: own.ids.memory,
    webhook_url: ['https://8.8.8.8/hook'],
    search_id: [own.searchId, foreign.searchId],
  };
  const pools: IdPools = { own: own.ids, foreign: foreign.ids, hints };
  const secrets: Record<string, string> = {
    $org: key,
    $ns: own.nsKey,
    $foreign: third.key,
    $revoked: (await makeRevokedKey(db, orgId)).key,
    $session: session.token,
    $admin: admin,
  };
  const orgs = [orgId, other.organizationId];
  const foreignObjects = { orgId: other.organizationId, ...foreign.ids };
  return {
    app,
    db,
    logs,
    pools,
    secrets,
    sentinels,
    orgs,
    foreignObjects,
    close: () => app.close().then(() => db.close()),
  };
}

/** An active graph schema with checked properties, so writes naming it are validated against it. */
const SCHEMA = {
  name: 'Fuzz CRM',
  status: 'active',
  node_types: {
    Person: {
      label: 'Person',
      properties: {
        name: {
          type: 'string',
          required: true,
          min_length: 1,
          max_length: 100,
          pattern: '^[A-Z][a-z]+$',
        },
        tier: { type: 'string', enum_values: ['bronze', 'silver', 'gold'] },
        age: { type: 'integer', min_value: 0, max_value: 150 },
        born: { type: 'datetime' },
      },
    },
    Company: { label: 'Company', properties: { name: { type: 'string', required: true }, size: { type: 'float' } } },
  },
  relationship_types: {
    WORKS_AT: { label: 'Works at', allowed_source_types: ['Person'], allowed_target_types: ['Company'] },
  },
};

/**
 * After the fuzz: the sentinels unchanged and findable, the other tenant's namespace, user and
 * schema still there, /health up. The keys are made now: the fuzz may have revoked the seeded ones.
 */
export async function checkIntact(world: World): Promise<void> {
  const keys = new Map<string, string>();
  for (const org of world.orgs) keys.set(org, (await makeKey(world.db, org)).key);
  const get = (url: string, orgId: string) =>
    world.app.inject({ method: 'GET', url, headers: { 'x-api-key': keys.get(orgId)! } });
  const health = await world.app.inject({ method: 'GET', url: '/health' });
  assert.equal(health.statusCode, 200, `/health: ${health.body}`);
  const { orgId, namespace, user, schema } = world.foreignObjects;
  for (const url of [`/v1/namespace/${namespace[0]}`, `/v1/user/${user[0]}`, `/v1/schemas/${schema[0]}`]) {
    const res = await get(url, orgId);
    assert.equal(res.statusCode, 200, `the other tenant's ${url}: ${res.body}`);
  }
  for (const s of world.sentinels) {
    const got = await get(`/v1/memory/${s.id}`, s.orgId);
    assert.equal(got.statusCode, 200, `sentinel ${s.id}: ${got.body}`);
    assert.equal(got.json().data.memories[0].content, s.content, `sentinel ${s.id} changed`);
    if (!s.search) continue;
    const headers = { 'x-api-key': keys.get(s.orgId)! };
    const found = await world.app.inject({
      method: 'POST',
      url: '/v1/memory/search',
      headers,
      payload: { query: `${s.search.word} ships`, external_user_id: s.search.externalUserId },
    });
    assert.equal(found.statusCode, 200, `search after the fuzz: ${found.body}`);
    const contents = found.json().data.memories.map((m: { content: string }) => m.content);
    assert.ok(contents.includes(s.content), `search misses "${s.content}": ${JSON.stringify(contents)}`);
  }
}
