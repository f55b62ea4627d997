import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../shared/errors.ts';
import { expandLinkTo } from './link-to.ts';

const upsert = { create: 'upsert', on_miss: 'create' } as const;
const lookup = { create: 'lookup', on_miss: 'ignore' } as const;
const node = (node_type: string, properties: unknown[], extra: object = {}) => ({
  node_type,
  search: { properties },
  ...upsert,
  ...extra,
});
const nodesOnly = (node_constraints: unknown[]) => ({ node_constraints, edge_constraints: [], specials: [] });

/** Assert a 422 for link_to (at `position` of the string `entry`, when given) and return its details. */
function rejects(linkTo: unknown, position?: number, entry: unknown = linkTo): Record<string, unknown> {
  try {
    expandLinkTo(linkTo);
  } catch (err) {
    assert.ok(err instanceof AppError, `expected AppError, got ${err}`);
    assert.equal(err.code, 422);
    const d = err.details as Record<string, unknown>;
    if (position !== undefined) {
      assert.equal(d.position, position, err.message);
      assert.equal(d.field, 'link_to');
      assert.equal(d.value, entry);
      assert.ok(
        err.message.includes(JSON.stringify(entry)) && err.message.includes(`position ${position}`),
        err.message,
      );
    }
    return d;
  }
  assert.fail(`expected 422 for ${JSON.stringify(linkTo)}`);
}

describe('link_to node forms', () => {
  it('Type:property is a semantic match at the default threshold, upsert', () => {
    assert.deepEqual(
      expandLinkTo('Task:title'),
      nodesOnly([node('Task', [{ name: 'title', mode: 'semantic', threshold: 0.85 }])]),
    );
  });

  it('Type:prop=value is an exact match on the value', () => {
    assert.deepEqual(
      expandLinkTo('Person:email=john@papr.ai'),
      nodesOnly([node('Person', [{ name: 'email', mode: 'exact', value: 'john@papr.ai' }])]),
    );
  });

  it('Type:prop~value is a semantic match on the value (spaces kept, ends trimmed)', () => {
    assert.deepEqual(
      expandLinkTo('Task:title~ auth bug '),
      nodesOnly([node('Task', [{ name: 'title', mode: 'semantic', threshold: 0.85, value: 'auth bug' }])]),
    );
  });

  it('~@T sets the threshold, ~@T~value both; ~@name is a value', () => {
    assert.deepEqual(
      expandLinkTo('Task:title~@0.9'),
      nodesOnly([node('Task', [{ name: 'title', mode: 'semantic', threshold: 0.9 }])]),
    );
    assert.deepEqual(
      expandLinkTo('Task:title~@0.7~auth'),
      nodesOnly([node('Task', [{ name: 'title', mode: 'semantic', threshold: 0.7, value: 'auth' }])]),
    );
    assert.deepEqual(
      expandLinkTo('User:handle~@alice'),
      nodesOnly([node('User', [{ name: 'handle', mode: 'semantic', threshold: 0.85, value: '@alice' }])]),
    );
  });

  it('several properties; a comma inside a value stays unless it starts name= / name~', () => {
    assert.deepEqual(
      expandLinkTo('Person:email,name'),
      nodesOnly([
        node('Person', [
          { name: 'email', mode: 'semantic', threshold: 0.85 },
          { name: 'name', mode: 'semantic', threshold: 0.85 },
        ]),
      ]),
    );
    assert.deepEqual(
      expandLinkTo('Company:name=Acme, Inc'),
      nodesOnly([node('Company', [{ name: 'name', mode: 'exact', value: 'Acme, Inc' }])]),
    );
    assert.deepEqual(
      expandLinkTo('Place:name=Paris, country=France'),
      nodesOnly([
        node('Place', [
          { name: 'name', mode: 'exact', value: 'Paris' },
          { name: 'country', mode: 'exact', value: 'France' },
        ]),
      ]),
    );
  });

  it('a double-quoted value may hold anything', () => {
    assert.deepEqual(
      expandLinkTo('Task:title="a, b=c \\"d\\""'),
      nodesOnly([node('Task', [{ name: 'title', mode: 'exact', value: 'a, b=c "d"' }])]),
    );
  });

  it('a list expands every entry in order', () => {
    assert.deepEqual(
      expandLinkTo(['Task:title', 'Person:email=j@x.io']),
      nodesOnly([
        node('Task', [{ name: 'title', mode: 'semantic', threshold: 0.85 }]),
        node('Person', [{ name: 'email', mode: 'exact', value: 'j@x.io' }]),
      ]),
    );
  });
});

describe('link_to dict form', () => {
  it('set and create (lookup, legacy never/auto/always) apply to their entry', () => {
    const out = expandLinkTo({
      'Task:title': {
        set: { status: 'done', summary: { mode: 'auto', prompt: 'one line' }, owner: { mode: 'exact', value: 'ann' } },
      },
      'SecurityPolicy:name': { create: 'lookup' },
      'Person:email=j@x.io': { create: 'never' },
      'Tag:name': { create: 'always' },
      'Topic:name': { create: 'auto' },
    });
    const sem = (name: string) => [{ name, mode: 'semantic', threshold: 0.85 }];
    assert.deepEqual(out.node_constraints, [
      {
        node_type: 'Task',
        search: { properties: sem('title') },
        set: {
          status: { mode: 'exact', value: 'done' },
          summary: { mode: 'auto', prompt: 'one line' },
          owner: { mode: 'exact', value: 'ann' },
        },
        ...upsert,
      },
      { node_type: 'SecurityPolicy', search: { properties: sem('name') }, ...lookup },
      { node_type: 'Person', search: { properties: [{ name: 'email', mode: 'exact', value: 'j@x.io' }] }, ...lookup },
      { node_type: 'Tag', search: { properties: sem('name') }, ...upsert },
      { node_type: 'Topic', search: { properties: sem('name') }, ...upsert },
    ]);
  });

  it('on_miss overrides create; when and link_only are kept/mapped; null options mean none', () => {
    const out = expandLinkTo({
      'Task:id=T-1': {
        create: 'upsert',
        on_miss: 'error',
        when: { _and: [{ priority: 'high' }, { _not: { status: 'done' } }] },
      },
      'Team:name': { link_only: true },
      'Org:name': null,
    });
    assert.deepEqual(out.node_constraints, [
      {
        node_type: 'Task',
        search: { properties: [{ name: 'id', mode: 'exact', value: 'T-1' }] },
        create: 'lookup',
        on_miss: 'error',
        when: { _and: [{ priority: 'high' }, { _not: { status: 'done' } }] },
      },
      { node_type: 'Team', search: { properties: [{ name: 'name', mode: 'semantic', threshold: 0.85 }] }, ...lookup },
      { node_type: 'Org', search: { properties: [{ name: 'name', mode: 'semantic', threshold: 0.85 }] }, ...upsert },
    ]);
  });

  it('bad options are 422 naming the entry', () => {
    assert.deepEqual(rejects({ 'Task:title': { bogus: 1 } }), {
      field: 'link_to',
      key: 'Task:title',
      options: ['bogus'],
    });
    const conflict = rejects({ 'Task:title': { create: 'upsert', link_only: true } });
    assert.deepEqual(conflict.issues, [
      {
        field: 'link_to["Task:title"].link_only',
        message: "create 'upsert' conflicts with deprecated link_only: true; send only create",
      },
    ]);
    assert.equal(
      (rejects({ 'Task:title': { create: 'sometimes' } }).issues as any[])[0].field,
      'link_to["Task:title"].create',
    );
    assert.deepEqual(rejects({ $previous: { create: 'lookup' } }), {
      field: 'link_to',
      value: '$previous',
      key: '$previous',
    });
    assert.deepEqual(rejects({ 'Task:title': 'lookup' }), { field: 'link_to', key: 'Task:title' });
  });
});

describe('link_to edge and traversal forms', () => {
  it('Source->EDGE->Target:property is an outgoing edge constraint searching the target', () => {
    assert.deepEqual(expandLinkTo('SecurityBehavior->MITIGATES->TacticDef:name'), {
      node_constraints: [],
      edge_constraints: [
        {
          edge_type: 'MITIGATES',
          direction: 'outgoing',
          source_type: 'SecurityBehavior',
          target_type: 'TacticDef',
          search: { properties: [{ name: 'name', mode: 'semantic', threshold: 0.85 }] },
          ...upsert,
        },
      ],
      specials: [],
    });
  });

  it('edge with a value, without a source, without a target; dict create applies', () => {
    const out = expandLinkTo({
      'Task->ASSIGNED_TO->Person:email=j@x.io': { create: 'lookup' },
      '->MITIGATES->TacticDef:name': {},
      'Person->KNOWS': {},
    });
    assert.deepEqual(out.edge_constraints, [
      {
        edge_type: 'ASSIGNED_TO',
        direction: 'outgoing',
        source_type: 'Task',
        target_type: 'Person',
        search: { properties: [{ name: 'email', mode: 'exact', value: 'j@x.io' }] },
        ...lookup,
      },
      {
        edge_type: 'MITIGATES',
        direction: 'outgoing',
        target_type: 'TacticDef',
        search: { properties: [{ name: 'name', mode: 'semantic', threshold: 0.85 }] },
        ...upsert,
      },
      { edge_type: 'KNOWS', direction: 'outgoing', source_type: 'Person', ...upsert },
    ]);
  });

  it('Type.via(EDGE->Target:prop) finds the node through a relationship', () => {
    assert.deepEqual(
      expandLinkTo('Task.via(ASSIGNED_TO->Person:email=john@example.com)'),
      nodesOnly([
        {
          node_type: 'Task',
          search: {
            properties: [],
            via_relationship: [
              {
                edge_type: 'ASSIGNED_TO',
                target_type: 'Person',
                direction: 'outgoing',
                target_search: { properties: [{ name: 'email', mode: 'exact', value: 'john@example.com' }] },
              },
            ],
          },
          ...upsert,
        },
      ]),
    );
  });

  it('via: balanced parentheses in a value, no target property, chained steps', () => {
    const [a] = expandLinkTo('Task.via(OWNED_BY->Person:name=Bob (Jr))').node_constraints;
    assert.deepEqual(a.search?.via_relationship?.[0].target_search, {
      properties: [{ name: 'name', mode: 'exact', value: 'Bob (Jr)' }],
    });
    const [b] = expandLinkTo('Task.via(IN->Project).via(OWNED_BY->Person:name~ann)').node_constraints;
    assert.deepEqual(b.search?.via_relationship, [
      { edge_type: 'IN', target_type: 'Project', direction: 'outgoing' },
      {
        edge_type: 'OWNED_BY',
        target_type: 'Person',
        direction: 'outgoing',
        target_search: { properties: [{ name: 'name', mode: 'semantic', threshold: 0.85, value: 'ann' }] },
      },
    ]);
  });
});

describe('link_to special references', () => {
  it('$this, $previous and $context:N are special targets', () => {
    assert.deepEqual(expandLinkTo(['$this', '$previous', '$context:5']), {
      node_constraints: [],
      edge_constraints: [],
      specials: [{ ref: '$this' }, { ref: '$previous' }, { ref: '$context', count: 5 }],
    });
  });
});

describe('malformed link_to strings are 422 with the position', () => {
  it('unbalanced parentheses', () => {
    rejects('Task.via(A->B:x', 15);
    rejects('Task.via(A->B:x))', 16);
    rejects('Task.via A->B)', 9);
  });

  it('empty type, missing pieces', () => {
    rejects(':title', 0);
    rejects('Task', 4);
    rejects('Task:', 5);
    rejects('Task:title=', 11);
    rejects('', 0);
    rejects('Task.foo(A->B)', 5);
    rejects('Task:title~@1.5', 12);
  });

  it('dangling arrows', () => {
    rejects('Task->', 6);
    rejects('Task->WORKS_ON->', 16);
    rejects('->', 2);
    rejects('Task.via(EDGE->)', 15);
  });

  it('bad $context:N and unknown references', () => {
    rejects('$context:0', 9);
    rejects('$context:51', 9);
    rejects('$context:x', 9);
    rejects('$context:2.5', 9);
    rejects('$context', 8);
    rejects('$foo', 0);
  });

  it('an entry in a list or dict names its index or key', () => {
    assert.equal(rejects(['Task:title', 'Task->'], 6, 'Task->').index, 1);
    assert.equal(rejects({ 'Person:name': {}, ':x': {} }, 0, ':x').key, ':x');
    assert.deepEqual(rejects(['Task:title', 7]), { field: 'link_to', index: 1 });
    assert.deepEqual(rejects(42), { field: 'link_to' });
  });
});
