import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyEdgeConstraints,
  applyNodeConstraints,
  ConstraintError,
  fuzzyRatio,
  holds,
  wordCosine,
  type PlannedNode,
} from './constraints.ts';
import type { NodeRow } from './graph.store.ts';
import type { WhenCondition } from './policy.schemas.ts';

const stored = (type: string, name: string, properties: Record<string, unknown> = {}): NodeRow => ({
  id: `${type}:${name}`,
  organization_id: 'o',
  namespace_key: '',
  type,
  name,
  properties,
  schema_id: null,
});
const pool: NodeRow[] = [stored('Person', 'Ana Silva', { email: 'ana@x.io' }), stored('Company', 'Acme Corporation')];
const candidates = async (type: string) => pool.filter((n) => n.type === type);
const node = (key: string, type: string, name: string, properties: Record<string, unknown> = {}): PlannedNode => ({
  key,
  type,
  name,
  properties,
});

describe('graph constraints', () => {
  it('when: equality, _and, _or, _not', () => {
    const p = { priority: 'high', done: false };
    // Literal conditions as the zod schema types them (its catchall makes literals awkward to type).
    const when = (c: object) => c as WhenCondition;
    assert.equal(holds(when({ priority: 'high' }), p), true);
    assert.equal(holds(when({ _and: [{ priority: 'high' }, { _not: { done: true } }] }), p), true);
    assert.equal(holds(when({ _or: [{ priority: 'low' }, { done: true }] }), p), false);
    assert.equal(holds(undefined, p), true);
  });

  it('fuzzy ratio and word cosine', () => {
    assert.equal(fuzzyRatio('Ana Silva', 'ana  silva'), 1);
    assert.ok(fuzzyRatio('Ana Silvaa', 'Ana Silva') > 0.85);
    assert.ok(fuzzyRatio('Bob', 'Ana Silva') < 0.5);
    assert.ok(wordCosine('Acme Corporation', 'the acme corporation') > 0.8);
    assert.equal(wordCosine('Acme', 'Globex'), 0);
  });

  it('a search with values links to the stored node, creates it (upsert) or fails (lookup + error)', async () => {
    const linked = await applyNodeConstraints(
      [],
      [
        {
          node_type: 'Person',
          search: { properties: [{ name: 'email', mode: 'exact', value: 'ana@x.io' }] },
          create: 'lookup',
          on_miss: 'ignore',
        },
      ],
      { candidates },
    );
    assert.deepEqual(
      linked.map((n) => [n.name, n.existing]),
      [['Ana Silva', true]],
    );
    const created = await applyNodeConstraints(
      [],
      [
        {
          node_type: 'Person',
          search: { properties: [{ name: 'name', mode: 'exact', value: 'Bo' }] },
          create: 'upsert',
          on_miss: 'create',
        },
      ],
      { candidates },
    );
    assert.deepEqual(
      created.map((n) => [n.type, n.name, n.existing]),
      [['Person', 'Bo', undefined]],
    );
    await assert.rejects(
      applyNodeConstraints(
        [],
        [
          {
            node_type: 'Person',
            search: { properties: [{ name: 'name', mode: 'exact', value: 'Bo' }] },
            create: 'lookup',
            on_miss: 'error',
          },
        ],
        { candidates },
      ),
      (e: unknown) => e instanceof ConstraintError && (e as ConstraintError).permanent,
    );
  });

  it('extracted nodes are matched semantically, filled by set, and dropped by lookup when unknown', async () => {
    const out = await applyNodeConstraints(
      [node('a', 'Company', 'The Acme Corporation'), node('b', 'Company', 'Initech'), node('c', 'Person', 'Zed')],
      [
        {
          node_type: 'Company',
          search: { properties: [{ name: 'name', mode: 'semantic', threshold: 0.8 }] },
          set: { tier: { mode: 'exact', value: 'gold' }, notes: { mode: 'auto' } },
          create: 'lookup',
          on_miss: 'ignore',
        },
      ],
      { candidates },
    );
    assert.deepEqual(
      out.map((n) => [n.key, n.name, n.properties.tier ?? null]),
      [
        ['a', 'Acme Corporation', 'gold'],
        ['c', 'Zed', null],
      ],
    );
  });

  it('edge constraints: set on matching edges; lookup keeps only edges between stored nodes', () => {
    const nodes = [
      { ...node('a', 'Person', 'Ana Silva'), existing: true },
      node('b', 'Company', 'Initech'),
      { ...node('c', 'Company', 'Acme Corporation'), existing: true },
    ];
    const edges = [
      { source: 'a', target: 'b', type: 'WORKS_AT', properties: {} },
      { source: 'a', target: 'c', type: 'WORKS_AT', properties: {} },
    ];
    const set = applyEdgeConstraints(edges, nodes, [
      {
        edge_type: 'WORKS_AT',
        direction: 'outgoing',
        source_type: 'Person',
        target_type: 'Company',
        set: { since: { mode: 'exact', value: 2024 } },
        create: 'upsert',
        on_miss: 'create',
      },
    ]);
    assert.deepEqual(
      set.map((e) => e.properties.since),
      [2024, 2024],
    );
    const lookup = applyEdgeConstraints(edges, nodes, [
      { edge_type: 'WORKS_AT', direction: 'outgoing', create: 'lookup', on_miss: 'ignore' },
    ]);
    assert.deepEqual(
      lookup.map((e) => e.target),
      ['c'],
    );
    assert.throws(
      () =>
        applyEdgeConstraints(edges, nodes, [
          { edge_type: 'WORKS_AT', direction: 'outgoing', create: 'lookup', on_miss: 'error' },
        ]),
      ConstraintError,
    );
  });
});
