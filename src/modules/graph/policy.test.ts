import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../shared/errors.ts';
import { normaliseMemory } from '../memories/index.ts';
import { applyConsent, requestedSchemaId, resolveGraphPlan, storedGraphPolicy } from './policy.ts';
import { classifyEndpoint } from './policy.schemas.ts';

const empty = {
  nodes: [],
  relationships: [],
  node_constraints: [],
  edge_constraints: [],
  link_to_previous_memory: false,
  link_to_related_memories: 0,
  link_to_context_memories: 0,
};
const upsert = { create: 'upsert', on_miss: 'create' } as const;
const lookup = { create: 'lookup', on_miss: 'ignore' } as const;

/** What compat hands the graph layer for a request body. */
const graphOf = (body: Record<string, unknown>) => policyOf(body).graph;
/** The whole graph policy compat hands on: the graph keys, and the deprecated graph_generation beside them. */
const policyOf = (body: Record<string, unknown>) =>
  normaliseMemory({ content: 'x', type: 'text', ...body } as any).policy;
/** The plan of a request body, as the write path resolves it. */
const planOf = (body: Record<string, unknown>) => {
  const p = policyOf(body);
  return resolveGraphPlan(p.graph, null, p.graph_generation);
};

function rejects(fn: () => unknown): { message: string; details: Record<string, any> } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AppError, `expected AppError, got ${err}`);
    assert.equal(err.code, 422);
    return { message: err.message, details: err.details as Record<string, any> };
  }
  assert.fail('expected a 422');
}

describe('defaults and modes', () => {
  it('nothing given: auto, no constraints, no links', () => {
    assert.deepEqual(resolveGraphPlan({}), { mode: 'auto', ...empty });
    assert.deepEqual(resolveGraphPlan(undefined), { mode: 'auto', ...empty });
  });

  it('policy.graph mode none is an empty plan; schema_id is kept', () => {
    assert.deepEqual(resolveGraphPlan(graphOf({ policy: { graph: { mode: 'none', schema_id: 's1' } } })), {
      mode: 'none',
      schema_id: 's1',
      ...empty,
    });
  });

  it('manual nodes and relationships (current form); endpoints classify', () => {
    const plan = resolveGraphPlan(
      graphOf({
        policy: {
          graph: {
            mode: 'manual',
            nodes: [{ id: 'p1', type: 'Person', properties: { name: 'Ann' } }],
            relationships: [
              { source: '$this', target: 'p1', type: 'MENTIONS' },
              { source: 'p1', target: 'mem_9', type: 'WROTE', properties: { year: 2020 } },
            ],
          },
        },
      }),
    );
    assert.deepEqual(plan, {
      mode: 'manual',
      ...empty,
      nodes: [{ id: 'p1', type: 'Person', properties: { name: 'Ann' } }],
      relationships: [
        { source: '$this', target: 'p1', type: 'MENTIONS' },
        { source: 'p1', target: 'mem_9', type: 'WROTE', properties: { year: 2020 } },
      ],
    });
    const ids = new Set(plan.nodes.map((n) => n.id));
    assert.deepEqual(
      ['$this', '$previous', 'p1', 'mem_9'].map((r) => classifyEndpoint(r, ids)),
      [{ kind: 'this' }, { kind: 'previous' }, { kind: 'node', id: 'p1' }, { kind: 'memory', id: 'mem_9' }],
    );
  });

  it("mode 'structured' is manual; nodes without a mode mean manual", () => {
    const nodes = [{ id: 'a', type: 'Task', properties: {} }];
    assert.equal(resolveGraphPlan(graphOf({ memory_policy: { mode: 'structured', nodes } })).mode, 'manual');
    assert.equal(resolveGraphPlan({ mode: 'structured', nodes }).mode, 'manual');
    assert.deepEqual(resolveGraphPlan({ nodes }), { mode: 'manual', ...empty, nodes });
  });
});

describe('legacy forms', () => {
  it('graph_generation manual: label, source_node_id / target_node_id / relationship_type', () => {
    const plan = planOf({
      graph_generation: {
        mode: 'manual',
        manual: {
          nodes: [
            { id: 'p1', label: 'Person', properties: { name: 'Ann' } },
            { id: 'c1', label: 'Company', properties: {} },
          ],
          relationships: [
            {
              source_node_id: 'p1',
              target_node_id: 'c1',
              relationship_type: 'WORKS_AT',
              properties: { since: 2021 },
            },
          ],
        },
      },
    });
    assert.deepEqual(plan, {
      mode: 'manual',
      ...empty,
      nodes: [
        { id: 'p1', type: 'Person', properties: { name: 'Ann' } },
        { id: 'c1', type: 'Company', properties: {} },
      ],
      relationships: [{ source: 'p1', target: 'c1', type: 'WORKS_AT', properties: { since: 2021 } }],
    });
  });

  it('graph_generation auto: schema_id and property_overrides → node constraints', () => {
    const policy = policyOf({
      graph_generation: {
        mode: 'auto',
        auto: {
          schema_id: 'sch_1',
          property_overrides: [{ nodeLabel: 'User', set: { role: 'admin' }, match: { name: 'Ann' } }],
        },
      },
    });
    assert.equal(requestedSchemaId(policy.graph, policy.graph_generation), 'sch_1');
    assert.deepEqual(resolveGraphPlan(policy.graph, null, policy.graph_generation), {
      mode: 'auto',
      schema_id: 'sch_1',
      ...empty,
      node_constraints: [
        { node_type: 'User', set: { role: { mode: 'exact', value: 'admin' } }, ...upsert, when: { name: 'Ann' } },
      ],
    });
  });

  it('a policy stored before plans were kept reads its graph_generation from inside graph', () => {
    const generation = { mode: 'manual', manual: { nodes: [{ id: 'a', label: 'T', properties: {} }] } };
    assert.deepEqual(storedGraphPolicy({ graph: { mode: 'manual', legacy_graph_generation: generation } }), {
      graph: { mode: 'manual' },
      graph_generation: generation,
    });
    assert.deepEqual(storedGraphPolicy({ graph: { mode: 'auto' }, graph_generation: generation }), {
      graph: { mode: 'auto' },
      graph_generation: generation,
    });
    assert.deepEqual(storedGraphPolicy({}), { graph: {}, graph_generation: undefined });
  });

  it('policy wins over graph_generation: its manual block is ignored under mode auto', () => {
    const plan = planOf({
      policy: { graph: { mode: 'auto' } },
      graph_generation: {
        mode: 'manual',
        manual: {
          nodes: [{ id: 'p1', label: 'Person', properties: {} }],
          relationships: [{ source_node_id: 'p1', target_node_id: '$this', relationship_type: 'IN' }],
        },
      },
    });
    assert.deepEqual(plan, { mode: 'auto', ...empty });
  });

  it('relationships_json as a list or a JSON string', () => {
    const items = [
      { relation_type: 'FOLLOWS', relationship_type: 'previous_memory_item_id' },
      {
        relation_type: 'REFERENCES',
        related_item_id: 'mem_1',
        relationship_type: 'link_to_id',
        metadata: { why: 'cited' },
      },
      { relation_type: 'RELATED', related_item_id: 'mem_2' },
      { relation_type: 'IN_THREAD', relationship_type: 'all_previous_memory_items' },
    ];
    const expected = {
      mode: 'auto',
      ...empty,
      relationships: [
        { source: '$this', target: '$previous', type: 'FOLLOWS' },
        { source: '$this', target: 'mem_1', type: 'REFERENCES', properties: { why: 'cited' } },
        { source: '$this', target: 'mem_2', type: 'RELATED' },
      ],
      link_to_context_memories: 50,
    };
    assert.deepEqual(resolveGraphPlan(graphOf({ relationships_json: items })), expected);
    assert.deepEqual(resolveGraphPlan({ relationships_json: JSON.stringify(items) }), expected);
    assert.deepEqual(rejects(() => resolveGraphPlan({ relationships_json: '[{' })).details, {
      field: 'relationships_json',
    });
    assert.deepEqual(
      rejects(() => resolveGraphPlan({ relationships_json: [{ relation_type: 'X', relationship_type: 'link_to_id' }] }))
        .details,
      { field: 'relationships_json.0.related_item_id' },
    );
  });

  it('link_to_previous_memory and link_to_related_memories (true → 3, or N)', () => {
    assert.deepEqual(resolveGraphPlan({ link_to_previous_memory: true, link_to_related_memories: true }), {
      mode: 'auto',
      ...empty,
      link_to_previous_memory: true,
      link_to_related_memories: 3,
    });
    assert.equal(resolveGraphPlan({ link_to_related_memories: 7 }).link_to_related_memories, 7);
    assert.equal(
      rejects(() => resolveGraphPlan({ link_to_related_memories: 500 })).details.issues[0].field,
      'link_to_related_memories',
    );
  });

  it(
    'constraint spellings: create aliases, link_only, ' + 'on_miss, bare search strings, search defaults, set forms',
    () => {
      const plan = resolveGraphPlan({
        node_constraints: [
          {
            node_type: 'A',
            create: 'auto',
            search: { properties: ['id', { name: 'title' }, { name: 'name', mode: 'fuzzy' }] },
          },
          {
            node_type: 'B',
            create: 'never',
            search: {
              mode: 'semantic',
              threshold: 0.7,
              properties: [{ name: 'title' }, { name: 'code', mode: 'exact', threshold: 0.5 }],
            },
          },
          { node_type: 'C', link_only: true, set: { s: { value: 1 }, t: { a: 1 }, u: [1, 2] } },
          { node_type: 'D', create: 'lookup', on_miss: 'create', when: {}, search: {} },
        ],
        edge_constraints: [
          { edge_type: 'MITIGATES', create: 'never', search: { properties: ['name'] }, source_type: 'Behavior' },
        ],
      });
      assert.deepEqual(plan.node_constraints, [
        {
          node_type: 'A',
          search: {
            properties: [
              { name: 'id', mode: 'exact' },
              { name: 'title', mode: 'semantic', threshold: 0.85 },
              { name: 'name', mode: 'fuzzy', threshold: 0.8 },
            ],
          },
          ...upsert,
        },
        {
          node_type: 'B',
          search: {
            properties: [
              { name: 'title', mode: 'semantic', threshold: 0.7 },
              { name: 'code', mode: 'exact' },
            ],
          },
          ...lookup,
        },
        {
          node_type: 'C',
          set: {
            s: { mode: 'exact', value: 1 },
            t: { mode: 'exact', value: { a: 1 } },
            u: { mode: 'exact', value: [1, 2] },
          },
          ...lookup,
        },
        { node_type: 'D', ...upsert },
      ]);
      assert.deepEqual(plan.edge_constraints, [
        {
          edge_type: 'MITIGATES',
          direction: 'outgoing',
          source_type: 'Behavior',
          search: { properties: [{ name: 'name', mode: 'exact' }] },
          ...lookup,
        },
      ]);
    },
  );
});

describe('link_to inside the plan', () => {
  it('merged after explicit constraints; $previous and $context:N become links', () => {
    const plan = resolveGraphPlan(
      graphOf({
        memory_policy: { node_constraints: [{ node_type: 'Task', create: 'never' }] },
        link_to: ['Task:title', 'Person->WORKS_ON->Task:title', '$previous', '$context:4'],
      }),
    );
    assert.deepEqual(plan, {
      mode: 'auto',
      ...empty,
      node_constraints: [
        { node_type: 'Task', ...lookup },
        {
          node_type: 'Task',
          search: { properties: [{ name: 'title', mode: 'semantic', threshold: 0.85 }] },
          ...upsert,
        },
      ],
      edge_constraints: [
        {
          edge_type: 'WORKS_ON',
          direction: 'outgoing',
          source_type: 'Person',
          target_type: 'Task',
          search: { properties: [{ name: 'title', mode: 'semantic', threshold: 0.85 }] },
          ...upsert,
        },
      ],
      link_to_previous_memory: true,
      link_to_context_memories: 4,
    });
  });

  it('$previous with link_to_previous_memory false is a conflict', () => {
    assert.deepEqual(
      rejects(() => resolveGraphPlan({ link_to: '$previous', link_to_previous_memory: false })).details,
      { fields: ['link_to', 'link_to_previous_memory'] },
    );
  });
});

describe('precedence: request > schema memory_policy > defaults', () => {
  const schema = {
    mode: 'auto',
    node_constraints: [
      { node_type: 'Task', create: 'upsert', set: { status: { mode: 'auto' } } },
      { node_type: 'Person', create: 'lookup' },
    ],
    edge_constraints: [{ edge_type: 'ASSIGNED_TO', create: 'never' }],
    link_to_related_memories: 2,
    link_to_previous_memory: true,
  };

  it('schema supplies defaults when the request is silent', () => {
    assert.deepEqual(resolveGraphPlan({}, schema), {
      mode: 'auto',
      ...empty,
      node_constraints: [
        { node_type: 'Task', set: { status: { mode: 'auto' } }, ...upsert },
        { node_type: 'Person', ...lookup },
      ],
      edge_constraints: [{ edge_type: 'ASSIGNED_TO', direction: 'outgoing', ...lookup }],
      link_to_previous_memory: true,
      link_to_related_memories: 2,
    });
  });

  it('a request constraint replaces the schema one for its key; request flags win', () => {
    const plan = resolveGraphPlan(
      { node_constraints: [{ node_type: 'Task', create: 'lookup' }], link_to_previous_memory: false },
      schema,
    );
    assert.deepEqual(plan.node_constraints, [
      { node_type: 'Task', ...lookup },
      { node_type: 'Person', ...lookup },
    ]);
    assert.equal(plan.link_to_previous_memory, false);
    assert.equal(plan.link_to_related_memories, 2);
  });

  it('request mode wins over the schema; schema mode applies when the request has none', () => {
    assert.deepEqual(resolveGraphPlan({ mode: 'none' }, schema), { mode: 'none', ...empty });
    const nodes = [{ id: 'n', type: 'Task', properties: {} }];
    assert.deepEqual(resolveGraphPlan({}, { mode: 'manual', nodes, node_constraints: [{ node_type: 'Task' }] }), {
      mode: 'manual',
      ...empty,
      nodes,
    });
  });
});

describe('conflicts are 422 naming the fields', () => {
  it('type vs label, source vs source_node_id', () => {
    const a = rejects(() =>
      resolveGraphPlan({ nodes: [{ id: 'a', type: 'Person', label: 'Company', properties: {} }] }),
    );
    assert.deepEqual(a.details.issues, [
      { field: 'nodes.0.label', message: 'type and deprecated label differ; send only type' },
    ]);
    const b = rejects(() =>
      resolveGraphPlan({
        mode: 'manual',
        nodes: [{ id: 'a', type: 'T', properties: {} }],
        relationships: [{ source: 'a', source_node_id: 'b', target: '$this', type: 'R' }],
      }),
    );
    assert.equal(b.details.issues[0].field, 'relationships.0.source_node_id');
  });

  it(
    'mode auto with nodes; mode none with content; ' + 'manual with constraints; manual without nodes; duplicate ids',
    () => {
      const nodes = [{ id: 'a', type: 'T', properties: {} }];
      assert.deepEqual(rejects(() => resolveGraphPlan({ mode: 'auto', nodes })).details, { fields: ['mode', 'nodes'] });
      assert.deepEqual(rejects(() => resolveGraphPlan({ mode: 'none', link_to: 'Task:title' })).details, {
        fields: ['mode', 'link_to'],
      });
      assert.deepEqual(rejects(() => resolveGraphPlan({ mode: 'manual', nodes, link_to: 'Task:title' })).details, {
        fields: ['mode', 'link_to'],
      });
      assert.deepEqual(rejects(() => resolveGraphPlan({ mode: 'manual' })).details, { fields: ['mode', 'nodes'] });
      assert.deepEqual(rejects(() => resolveGraphPlan({ nodes: [...nodes, ...nodes] })).details, {
        fields: ['nodes'],
        id: 'a',
      });
    },
  );

  it('empty lists are not content: no conflict, and they do not hide graph_generation', () => {
    assert.deepEqual(resolveGraphPlan({ mode: 'none', nodes: [], link_to: [], node_constraints: [] }), {
      mode: 'none',
      ...empty,
    });
    const plan = planOf({
      memory_policy: { nodes: [] },
      graph_generation: { mode: 'manual', manual: { nodes: [{ id: 'a', label: 'T', properties: {} }] } },
    });
    assert.deepEqual(plan.nodes, [{ id: 'a', type: 'T', properties: {} }]);
  });

  it('invalid shapes and bounds', () => {
    assert.equal(rejects(() => resolveGraphPlan({ mode: 'sometimes' })).details.issues[0].field, 'mode');
    assert.equal(
      rejects(() => resolveGraphPlan({ node_constraints: [{ create: 'upsert' }] })).details.issues[0].field,
      'node_constraints.0.node_type',
    );
    const many = Array.from({ length: 51 }, (_, i) => ({ node_type: `T${i}` }));
    assert.equal(rejects(() => resolveGraphPlan({ node_constraints: many })).details.field, 'node_constraints');
    assert.equal(
      rejects(() => resolveGraphPlan({ edge_constraints: [{ edge_type: 'E', direction: 'sideways' }] })).details
        .issues[0].field,
      'edge_constraints.0.direction',
    );
    assert.equal(
      rejects(() =>
        resolveGraphPlan({
          node_constraints: [{ node_type: 'T', search: { properties: [{ name: 'x', threshold: 2 }] } }],
        }),
      ).details.issues[0].field,
      'node_constraints.0.search.properties.0.threshold',
    );
  });

  it('when: operators must stand alone, unknown operators and deep nesting are refused', () => {
    const when = (w: unknown) => resolveGraphPlan({ node_constraints: [{ node_type: 'T', when: w }] });
    assert.deepEqual(when({ _or: [{ a: 1 }, { _not: { b: null } }] }).node_constraints[0].when, {
      _or: [{ a: 1 }, { _not: { b: null } }],
    });
    assert.match(rejects(() => when({ a: 1, _not: { b: 2 } })).message, /_not must be the only key/);
    assert.equal(rejects(() => when({ _xor: [] })).details.issues[0].field, 'node_constraints.0.when._xor');
    let deep: unknown = { a: 1 };
    for (let i = 0; i < 9; i++) deep = { _not: deep };
    assert.match(rejects(() => when(deep)).message, /nest at most 8 deep/);
  });
});

describe('consent', () => {
  it('consent none turns the graph off whatever was asked; other consents keep the plan', () => {
    const plan = resolveGraphPlan({ link_to: ['Task:title', '$previous'], schema_id: 's1' });
    assert.deepEqual(applyConsent(plan, 'none'), { mode: 'none', schema_id: 's1', ...empty, disabled_by: 'consent' });
    assert.equal(applyConsent(plan, 'explicit'), plan);
    assert.equal(applyConsent(plan, undefined), plan);
  });
});
