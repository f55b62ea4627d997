import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { makeNamespace, makeOrg } from '../../../test/factories.ts';
import { addMemory, post } from '../../../test/memory-helpers.ts';
import { sleep } from '../../../test/wait.ts';
import { buildWorker } from '../../app.ts';
import { createLogger } from '../../platform/log.ts';
import type { Worker } from '../../platform/jobs/index.ts';
import { stillCurrent } from './links.store.ts';
import { setMemoryEdges } from './graph.store.ts';

const log = createLogger('silent');

for (const store of testStores) {
  describe(`knowledge graph [${store.name}]`, () => {
    let t: TestApp;
    let worker: Worker;
    // A strong graph weight makes the mechanism visible on five memories (the default is tuned on LoCoMo).
    const env = { WORKER_POLL_MS: '50', SEARCH_WEIGHT_GRAPH: '0.6' };
    const settled = async (id: string, key = t.key) => {
      for (let i = 0; i < 400; i++) {
        const r = await t.app.inject({ url: `/v1/memory/status/${id}`, headers: { 'x-api-key': key } });
        if (['completed', 'failed'].includes(r.json().processing_status)) return r.json();
        await sleep(25);
      }
      throw new Error(`memory ${id} not processed`);
    };
    const nodesOf = (memoryId: string) =>
      t.db.query<{ type: string; name: string; properties: Record<string, unknown> }>(
        `SELECT n.type, n.name, n.properties FROM memory_nodes mn JOIN graph_nodes n ON n.id = mn.node_id
         WHERE mn.memory_id = $1 ORDER BY n.type, n.name`,
        [memoryId],
      );
    const edgesOf = (memoryId: string) =>
      t.db.query<{ type: string; source: string; target: string }>(
        `SELECT e.type, s.name AS source, d.name AS target FROM graph_edges e
         JOIN graph_nodes s ON s.id = e.source_id JOIN graph_nodes d ON d.id = e.target_id
       WHERE e.memory_id = $1 ORDER BY e.type, s.name`,
        [memoryId],
      );
    const add = async (payload: Record<string, unknown>, key = t.key) => {
      const id = await addMemory(t, { external_user_id: 'gina', ...payload }, key);
      assert.equal((await settled(id, key)).processing_status, 'completed');
      return id;
    };

    before(async () => {
      t = await startApp(store, { env });
      worker = buildWorker({ config: testConfig(env), db: t.db, log });
      await worker.start();
    });
    after(async () => {
      await worker.stop();
      await t.close();
    });

    it('auto mode extracts typed nodes and relationships in the background job', async () => {
      const id = await add({ content: 'Ana Silva works at Acme Corp in Lisbon.' });
      const nodes = await nodesOf(id);
      const names = nodes.map((n) => `${n.type}:${n.name}`);
      for (const n of ['Person:Ana Silva', 'Organization:Acme Corp', 'Place:Lisbon'])
        assert.ok(names.includes(n), `${n} in ${names}`);
      const edges = (await edgesOf(id)).map((e) => `${e.source}-${e.type}->${e.target}`);
      assert.ok(edges.includes('Ana Silva-WORKS_AT->Acme Corp'), edges.join());
    });

    it('an entity that already exists is reused, not duplicated', async () => {
      await add({ content: 'Ana Silva met Bruno Costa at the conference.' });
      const [{ n }] = await t.db.query(
        `SELECT count(*)::int AS n FROM graph_nodes WHERE type = 'Person' AND canonical_key = 'ana silva'`,
      );
      assert.equal(n, 1);
      const [{ links }] = await t.db.query(
        `SELECT count(*)::int AS links FROM memory_nodes mn JOIN graph_nodes g ON g.id = mn.node_id
         WHERE g.canonical_key = 'ana silva'`,
      );
      assert.equal(links, 2, 'one node, linked from both memories');
    });

    it('consent none stores the memory but builds no graph', async () => {
      const id = await add({ content: 'Carla Mendes lives in Porto.', policy: { consent: 'none' } });
      assert.deepEqual(await nodesOf(id), []);
    });

    it('manual mode stores exactly the given nodes and relationships ($this is the memory)', async () => {
      const id = await add({
        content: 'Quarterly review notes.',
        memory_policy: {
          mode: 'manual',
          nodes: [{ id: 'p', type: 'Project', properties: { name: 'Apollo', status: 'active' } }],
          relationships: [{ source: '$this', target: 'p', type: 'ABOUT' }],
        },
      });
      const nodes = await nodesOf(id);
      assert.deepEqual(
        nodes.map((n) => `${n.type}:${n.name}`),
        ['Memory:' + id, 'Project:Apollo'],
      );
      assert.equal(nodes[1].properties.status, 'active');
      assert.deepEqual(
        (await edgesOf(id)).map((e) => `${e.type}->${e.target}`),
        ['ABOUT->Apollo'],
      );
    });

    it('legacy item-level link_to_previous_memory and relationships link the memory to the previous one', async () => {
      const first = await add({ content: 'Standup: the deploy is blocked.', external_user_id: 'lena' });
      const second = await add({
        content: 'Standup: the deploy is unblocked.',
        external_user_id: 'lena',
        link_to_previous_memory: true,
        memory_policy: { mode: 'auto' },
      });
      const edges = await t.db.query<{ type: string; target: string }>(
        `SELECT e.type, d.name AS target FROM graph_edges e JOIN graph_nodes d ON d.id = e.target_id
         WHERE e.memory_id = $1 AND e.type = 'FOLLOWS'`,
        [second],
      );
      assert.deepEqual(edges, [{ type: 'FOLLOWS', target: first }]);
      const third = await add({
        content: 'Standup: shipped.',
        external_user_id: 'lena',
        relationships: [{ source: '$this', target: '$previous', type: 'RESOLVES' }],
      });
      const rel = await t.db.query<{ target: string }>(
        `SELECT d.name AS target FROM graph_edges e JOIN graph_nodes d ON d.id = e.target_id
         WHERE e.memory_id = $1 AND e.type = 'RESOLVES'`,
        [third],
      );
      assert.deepEqual(rel, [{ target: second }]);
      const bad = await post(t, '/v1/memory', { content: 'x', external_user_id: 'lena', link_to: 'Person:' });
      assert.equal(bad.statusCode, 422, bad.body);
      assert.match(bad.json().error, /link_to/);
    });

    it('link_to links the memory to a stored node (exact), creating it only as the constraint allows', async () => {
      const id = await add({ content: 'Sync about the rollout schedule.', link_to: 'Project:name=Apollo' });
      const nodes = (await nodesOf(id)).map((n) => `${n.type}:${n.name}`);
      assert.ok(nodes.includes('Project:Apollo'), nodes.join());
      const [{ n }] = await t.db.query(
        `SELECT count(*)::int AS n FROM graph_nodes WHERE type = 'Project' AND canonical_key = 'apollo'`,
      );
      assert.equal(n, 1, 'the stored Apollo (from the manual memory) is reused');
      // Upsert (the default): a node that does not exist yet is created.
      const created = await add({ content: 'Kickoff notes.', link_to: 'Project:name=Hermes' });
      assert.ok((await nodesOf(created)).some((x) => x.type === 'Project' && x.name === 'Hermes'));
      // Lookup with on_miss error: the memory is stored but its processing fails with the reason, at once.
      const res = await post(t, '/v1/memory', {
        content: 'Notes for a project that is not there.',
        external_user_id: 'gina',
        link_to: { 'Project:name=Zeus': { create: 'lookup', on_miss: 'error' } },
      });
      assert.equal(res.statusCode, 200, res.body);
      const s = await settled(res.json().data[0].memoryId);
      assert.equal(s.processing_status, 'failed');
      assert.match(s.error, /No Project matches name=Zeus/);
      const [job] = await t.db.query(`SELECT attempts FROM jobs WHERE payload->>'memory_id' = $1`, [s.memory_id]);
      assert.equal(job.attempts, 1, 'an unmeetable constraint is not retried');
    });

    it(
      'node constraints: fuzzy search reuses a near-identical stored node; ' +
        'set writes fixed values; lookup drops unknown ones',
      async () => {
        const id = await add({
          content: 'Ana Silvaa joined Globex Inc in Madrid.',
          memory_policy: {
            node_constraints: [
              {
                node_type: 'Person',
                search: { properties: [{ name: 'name', mode: 'fuzzy', threshold: 0.85 }] },
                set: { status: { mode: 'exact', value: 'vip' } },
              },
              { node_type: 'Place', create: 'lookup' },
            ],
          },
        });
        const nodes = await nodesOf(id);
        const ana = nodes.find((n) => n.type === 'Person');
        assert.equal(ana?.name, 'Ana Silva', 'the misspelt name matched the stored person');
        assert.equal(ana?.properties.status, 'vip');
        assert.ok(!nodes.some((n) => n.type === 'Place'), 'Madrid is not stored, and lookup does not create it');
      },
    );

    it(
      'a user schema keeps extraction to its types, ' + 'validates manual nodes at write time, and shows in search',
      async () => {
        const created = await post(t, '/v1/schemas', {
          name: 'CRM',
          status: 'active',
          node_types: {
            Company: { properties: { name: { type: 'string', required: true } } },
            Deal: { properties: { name: { type: 'string' }, stage: { type: 'string', enum_values: ['open', 'won'] } } },
          },
          relationship_types: { ABOUT: { allowed_source_types: ['Memory'], allowed_target_types: ['Deal'] } },
        });
        assert.equal(created.statusCode, 201, created.body);
        const schemaId = created.json().data.id;
        const id = await add({
          content: 'Ana Silva closed the deal with Initech Corp.',
          memory_policy: { schema_id: schemaId },
        });
        const nodes = await nodesOf(id);
        assert.ok(nodes.length > 0 && nodes.every((n) => ['Company', 'Deal'].includes(n.type)), JSON.stringify(nodes));
        const [row] = await t.db.query(
          `SELECT schema_id FROM graph_nodes n JOIN memory_nodes mn ON mn.node_id = n.id
           WHERE mn.memory_id = $1 LIMIT 1`,
          [id],
        );
        assert.equal(row.schema_id, schemaId);
        const [used] = await t.db.query('SELECT usage_count, last_used_at FROM graph_schemas WHERE id = $1', [
          schemaId,
        ]);
        assert.equal(used.usage_count, 1, 'the memory that used the schema is counted');
        assert.ok(used.last_used_at);
        const res = await post(t, '/v1/memory/search', {
          query: 'Initech deal',
          external_user_id: 'gina',
          schema_id: schemaId,
        });
        assert.equal(res.statusCode, 200, res.body);
        assert.ok(
          res.json().data.nodes.length > 0 && res.json().data.nodes.every((n: any) => n.schema_id === schemaId),
        );
        assert.deepEqual(res.json().data.schemas_used, [schemaId]);
        const bad = await post(t, '/v1/memory', {
          content: 'Deal update.',
          external_user_id: 'gina',
          memory_policy: {
            mode: 'manual',
            schema_id: schemaId,
            nodes: [
              { id: 'd', type: 'Deal', properties: { name: 'Big', stage: 'lost' } },
              { id: 'x', type: 'Unicorn', properties: {} },
            ],
          },
        });
        assert.equal(bad.statusCode, 422, bad.body);
        assert.match(JSON.stringify(bad.json().details), /Unicorn/);
        assert.match(JSON.stringify(bad.json().details), /stage/);
        const missing = await post(t, '/v1/memory', {
          content: 'x',
          external_user_id: 'gina',
          memory_policy: { schema_id: 'no-such-schema' },
        });
        assert.equal(missing.statusCode, 404, missing.body);
      },
    );

    it('links to related memories, the conversation context ($context:N) and memories named by id', async () => {
      const a = await add({ content: 'Rowing practice on the river at dawn.', external_user_id: 'rui' });
      const b = await add({ content: 'Bought a new carbon rowing oar.', external_user_id: 'rui' });
      await add({ content: 'Tax forms are due in April.', external_user_id: 'rui' });
      const target = (id: string, type: string) =>
        t.db.query<{ name: string }>(
          `SELECT d.name FROM graph_edges e JOIN graph_nodes d ON d.id = e.target_id
           WHERE e.memory_id = $1 AND e.type = $2 ORDER BY d.name`,
          [id, type],
        );
      const r = await add({
        content: 'Rowing race next week on the river.',
        external_user_id: 'rui',
        memory_policy: { link_to_related_memories: 2 },
      });
      const related = (await target(r, 'RELATED_TO')).map((x) => x.name);
      assert.equal(related.length, 2);
      assert.ok(related.includes(a), 'the most similar memory is linked');
      const c = await add({ content: 'Follow-up.', external_user_id: 'rui', link_to: '$context:2' });
      assert.equal((await target(c, 'IN_CONTEXT_OF')).length, 2);
      const cites = await add({
        content: 'See the oar note.',
        external_user_id: 'rui',
        memory_policy: { mode: 'manual', relationships: [{ source: '$this', target: b, type: 'CITES' }] },
      });
      assert.deepEqual(
        (await target(cites, 'CITES')).map((x) => x.name),
        [b],
      );
      // Deleting the cited memory takes its Memory node and the relationship to it along.
      assert.equal(
        (await t.app.inject({ method: 'DELETE', url: `/v1/memory/${b}`, headers: { 'x-api-key': t.key } })).statusCode,
        200,
      );
      assert.deepEqual(await target(cites, 'CITES'), []);
      assert.deepEqual(await t.db.query(`SELECT 1 FROM graph_nodes WHERE type = 'Memory' AND name = $1`, [b]), []);
    });

    it('a semantic node constraint matches a differently written stored node through the embedder', async () => {
      const id = await add({
        content: 'Bruno Costa works at Acme Corporation.',
        memory_policy: {
          node_constraints: [
            {
              node_type: 'Organization',
              search: { properties: [{ name: 'name', mode: 'semantic', threshold: 0.75 }] },
            },
          ],
        },
      });
      const orgs = (await nodesOf(id)).filter((n) => n.type === 'Organization').map((n) => n.name);
      assert.deepEqual(orgs, ['Acme Corp'], 'linked to the stored Acme Corp, no new node');
    });

    it('link_to Type.via(EDGE->Target:prop) finds the node through its relationship', async () => {
      const id = await add({
        content: 'Follow-up call scheduled.',
        link_to: 'Person.via(MET->Person:name=Bruno Costa)',
      });
      const people = (await nodesOf(id)).filter((n) => n.type === 'Person').map((n) => n.name);
      assert.deepEqual(people, ['Ana Silva'], 'Ana met Bruno (second test)');
    });

    it(
      'legacy graph_generation manual (label, ' +
        'source_node_id/target_node_id/relationship_type) builds the same graph',
      async () => {
        const id = await add({
          content: 'Legacy manual graph.',
          graph_generation: {
            mode: 'manual',
            manual: {
              nodes: [
                { id: 'a', label: 'Team', properties: { name: 'Platform' } },
                { id: 'b', label: 'Service', properties: { name: 'Billing API' } },
              ],
              relationships: [{ source_node_id: 'a', target_node_id: 'b', relationship_type: 'OWNS' }],
            },
          },
        });
        assert.deepEqual(
          (await nodesOf(id)).map((n) => `${n.type}:${n.name}`),
          ['Service:Billing API', 'Team:Platform'],
        );
        assert.deepEqual(
          (await edgesOf(id)).map((e) => `${e.source}-${e.type}->${e.target}`),
          ['Platform-OWNS->Billing API'],
        );
      },
    );

    it('search returns the nodes of the returned memories', async () => {
      const res = await post(t, '/v1/memory/search?max_nodes=5', {
        query: 'Where does Ana Silva work?',
        external_user_id: 'gina',
      });
      assert.equal(res.statusCode, 200, res.body);
      const nodes = res.json().data.nodes;
      assert.ok(nodes.length > 0 && nodes.length <= 5);
      assert.ok(
        nodes.some((n: any) => n.label === 'Person' && n.properties.name === 'Ana Silva'),
        JSON.stringify(nodes),
      );
    });

    /** Where `target` ranks for `user`'s `query` with the agentic walk and without it (-1: not in the top 10). */
    const ranks = async (user: string, query: string, target: string) => {
      const rank = async (agentic: boolean) => {
        const res = await post(t, '/v1/memory/search?max_memories=10', {
          query,
          external_user_id: user,
          enable_agentic_graph: agentic,
        });
        assert.equal(res.statusCode, 200, res.body);
        return res
          .json()
          .data.memories.map((m: { id: string }) => m.id)
          .indexOf(target);
      };
      const [agentic, plain] = [await rank(true), await rank(false)];
      return { agentic, plain, lifted: agentic >= 0 && (plain < 0 || agentic < plain) };
    };

    it('agentic graph search reaches a memory through a related entity', async () => {
      // Its own user and names, so earlier tests' memories do not compete.
      const hugo = (content: string) => add({ content, external_user_id: 'hugo' });
      await hugo('Marta Lopes works at Zentrix Labs in Porto.');
      await hugo('Marta Lopes likes hiking in the mountains.');
      await hugo('The weather in Porto was rainy all week.');
      await hugo('I need to renew my passport before the trip.');
      // Never names Marta: only the graph (Marta -WORKS_AT-> Zentrix Labs) connects it.
      const target = await hugo('Zentrix Labs postponed the product launch to May.');
      const r = await ranks('hugo', "What happened at Marta Lopes's company?", target);
      assert.ok(r.lifted, `ranked ${r.agentic} with the graph, ${r.plain} without`);
    });

    it("agentic graph search walks the searcher's own relationships, not another user's", async () => {
      const ivan = (content: string) => add({ content, external_user_id: 'ivan' });
      await ivan('Kofi Mensah likes sailing on weekends.');
      // Words of the question, so that without the graph the target ranks below them.
      await ivan('Something funny happened at the bakery today.');
      await ivan('My company laptop needs an update.');
      await ivan('Nobody knows what happened at the meeting.');
      const target = await ivan('Orvane Systems postponed the product launch to May.');
      // Another user of the organization relates the two (one shared node each).
      await add({ content: 'Kofi Mensah works at Orvane Systems.', external_user_id: 'jade' });
      const question = "What happened at Kofi Mensah's company?";
      const before = await ranks('ivan', question, target);
      assert.ok(!before.lifted, `jade's relationship lifted it: ${before.agentic} against ${before.plain}`);
      // Said by the searcher, the same relationship is theirs to walk.
      await ivan('Kofi Mensah works at Orvane Systems.');
      const after = await ranks('ivan', question, target);
      assert.ok(after.lifted, `ranked ${after.agentic} with the graph, ${after.plain} without`);
    });

    it('search_override runs a structured graph query: pattern, direction, filters, return_properties', async () => {
      const ask = (override: object, key = t.key) =>
        post(
          t,
          '/v1/memory/search?max_memories=3',
          { query: 'employment history', external_user_id: 'gina', search_override: override },
          key,
        );
      const res = await ask({
        pattern: {
          source_label: 'Person',
          relationship_type: 'WORKS_AT',
          target_label: 'Organization',
          direction: '->',
        },
        filters: [{ node_type: 'Person', property_name: 'name', operator: 'STARTS_WITH', value: 'ana' }],
        return_properties: ['name'],
      });
      assert.equal(res.statusCode, 200, res.body);
      const { memories, nodes } = res.json().data;
      assert.equal(memories[0].content, 'Ana Silva works at Acme Corp in Lisbon.');
      assert.deepEqual(nodes.map((n: any) => `${n.label}:${n.properties.name}`).sort(), [
        'Organization:Acme Corp',
        'Person:Ana Silva',
      ]);
      assert.ok(nodes.every((n: any) => Object.keys(n.properties).sort().join() === 'id,name'));
      // The reverse direction matches nothing; '-' matches either way.
      const reversed = await ask({
        pattern: {
          source_label: 'Person',
          relationship_type: 'WORKS_AT',
          target_label: 'Organization',
          direction: '<-',
        },
      });
      assert.deepEqual(reversed.json().data.nodes, []);
      const either = await ask({
        pattern: {
          source_label: 'Organization',
          relationship_type: 'WORKS_AT',
          target_label: 'Person',
          direction: '-',
        },
        filters: [{ node_type: 'Organization', property_name: 'name', operator: 'IN', value: ['acme corp'] }],
      });
      const employers = either
        .json()
        .data.memories.slice(0, 2)
        .map((m: { content: string }) => m.content)
        .sort();
      assert.deepEqual(employers, [
        'Ana Silva works at Acme Corp in Lisbon.',
        'Bruno Costa works at Acme Corporation.',
      ]);
      const bad = await ask({ filters: [] });
      assert.equal(bad.statusCode, 422, bad.body);
    });

    it('deleting a memory removes its links, relationships and orphaned nodes', async () => {
      const id = await add({ content: 'Diego Ramos visited Kyoto.' });
      assert.ok((await nodesOf(id)).some((n) => n.name === 'Diego Ramos'));
      const del = await t.app.inject({ method: 'DELETE', url: `/v1/memory/${id}`, headers: { 'x-api-key': t.key } });
      assert.equal(del.statusCode, 200, del.body);
      assert.deepEqual(
        await t.db.query(`SELECT 1 FROM graph_nodes WHERE canonical_key IN ('diego ramos', 'kyoto')`),
        [],
      );
      assert.deepEqual(await t.db.query('SELECT 1 FROM graph_edges WHERE memory_id = $1', [id]), []);
    });

    it("namespace deletion removes the namespace's graph and reports how many nodes went", async () => {
      const ns = await makeNamespace(t.db, t.orgId, 'graph-ns');
      const id = await add({
        content: 'Iris Novak works at Quill Books in Prague.',
        external_user_id: 'iris',
        namespace_id: ns,
      });
      const before = (await nodesOf(id)).length;
      assert.ok(before >= 3);
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/namespace/${ns}`, headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().cascade.graph_nodes_deleted, before);
      assert.equal(res.json().cascade.neo4j_nodes_deleted, before);
      assert.deepEqual(await t.db.query('SELECT 1 FROM graph_nodes WHERE namespace_key = $1', [ns]), []);
    });

    it("updating a memory's content processes it again and rebuilds its graph", async () => {
      const id = await add({ content: 'Oskar Lind lives in Malmo.', external_user_id: 'oskar' });
      assert.ok((await nodesOf(id)).some((n) => n.name === 'Oskar Lind'));
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/memory/${id}`,
        headers: { 'x-api-key': t.key },
        payload: { content: 'Petra Berg lives in Uppsala.' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await settled(id)).processing_status, 'completed');
      for (let i = 0; i < 200 && !(await nodesOf(id)).some((n) => n.name === 'Petra Berg'); i++) await sleep(25);
      const names = (await nodesOf(id)).map((n) => n.name);
      assert.ok(names.includes('Petra Berg') && !names.includes('Oskar Lind'), names.join());
      assert.deepEqual(
        await t.db.query(`SELECT 1 FROM graph_nodes WHERE canonical_key = 'oskar lind'`),
        [],
        'the old node is pruned',
      );
      const bad = await t.app.inject({
        method: 'PUT',
        url: `/v1/memory/${id}`,
        headers: { 'x-api-key': t.key },
        payload: { link_to: 'Person:name=' },
      });
      assert.equal(bad.statusCode, 422, bad.body);
    });

    it("re-writing a memory's unchanged relationships keeps them (new ids, same edges)", async () => {
      const id = await add({ content: 'Ana Silva works at Acme Corp.', external_user_id: 'gina' });
      const before = await edgesOf(id);
      assert.ok(before.length > 0, 'the memory produced relationships');
      const rows = await t.db.query<{
        source_id: string;
        target_id: string;
        type: string;
        properties: Record<string, unknown>;
      }>('SELECT source_id, target_id, type, properties FROM graph_edges WHERE memory_id = $1', [id]);
      const [{ organization_id: org }] = await t.db.query<{ organization_id: string }>(
        'SELECT organization_id FROM memories WHERE id = $1',
        [id],
      );
      await t.db.transaction((tx) =>
        setMemoryEdges(
          tx,
          org,
          id,
          rows.map((r, i) => ({
            id: `again-${id}-${i}`,
            source: r.source_id,
            target: r.target_id,
            type: r.type,
            properties: r.properties,
          })),
        ),
      );
      assert.deepEqual(await edgesOf(id), before);
    });

    it(
      'a build that read an older version of the memory is ' +
        'detected (content or policy changed; metadata does not count)',
      async () => {
        const id = await add({ content: 'Version one.', external_user_id: 'vera' });
        const [read] = await t.db.query(
          'SELECT id, content, policy, consent, namespace_id FROM memories WHERE id = $1',
          [id],
        );
        const current = () => t.db.transaction((tx) => stillCurrent(tx, read as any));
        assert.equal(await current(), true);
        await t.db.query(`UPDATE memories SET metadata = '{"topic":"x"}' WHERE id = $1`, [id]);
        assert.equal(await current(), true, 'metadata does not change the graph');
        await t.db.query(`UPDATE memories SET content = 'Version two.' WHERE id = $1`, [id]);
        assert.equal(await current(), false);
      },
    );

    it("another organization gets its own nodes and never reaches this one's memories through the graph", async () => {
      const b = await makeOrg(t.db);
      const theirs = await add({ content: 'Ana Silva works at Beta Labs.', external_user_id: 'gina' }, b.key);
      const [{ n }] = await t.db.query(
        `SELECT count(*)::int AS n FROM graph_nodes WHERE type = 'Person' AND canonical_key = 'ana silva'`,
      );
      assert.equal(n, 2, 'one Ana per organization');
      const res = await post(
        t,
        '/v1/memory/search?max_memories=20',
        { query: 'Ana Silva Acme Corp', external_user_id: 'gina', enable_agentic_graph: true },
        b.key,
      );
      const ids = res.json().data.memories.map((m: { id: string }) => m.id);
      assert.deepEqual(ids, [theirs]);
      assert.ok(
        res.json().data.nodes.every((x: any) => x.properties.name !== 'Acme Corp'),
        'no node of the other organization',
      );
      const o = await post(
        t,
        '/v1/memory/search?max_memories=20',
        {
          query: 'work',
          external_user_id: 'gina',
          search_override: {
            pattern: { source_label: 'Person', relationship_type: 'WORKS_AT', target_label: 'Organization' },
          },
        },
        b.key,
      );
      assert.deepEqual(
        o.json().data.memories.map((m: { id: string }) => m.id),
        [theirs],
      );
      assert.deepEqual(
        o
          .json()
          .data.nodes.map((x: any) => x.properties.name)
          .sort(),
        ['Ana Silva', 'Beta Labs'],
      );
    });
  });
}
