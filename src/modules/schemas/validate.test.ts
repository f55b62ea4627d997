import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../shared/errors.ts';
import {
  assertNodesMatchSchema,
  definitionProblems,
  PATTERN_LIMITS,
  validateNodesAgainstSchema,
  valueProblem,
  type GraphSchemaDefinition,
} from './validate.ts';

const schema: GraphSchemaDefinition = {
  id: 'crm',
  node_types: {
    Person: {
      name: 'Person',
      label: 'Person',
      properties: {
        name: { type: 'string', required: true, min_length: 2, max_length: 40 },
        email: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+$' },
        tier: { type: 'string', enum_values: ['bronze', 'silver', 'gold'] },
        age: { type: 'integer', min_value: 0, max_value: 150 },
        score: { type: 'float' },
        vip: { type: 'boolean' },
        tags: { type: 'array', enum_values: ['a', 'b'] },
        born: { type: 'datetime' },
        extra: { type: 'object' },
        status: { type: 'string', required: true, default: 'new' },
      },
    },
    Company: {
      name: 'Company',
      label: 'Company',
      properties: { name: { type: 'string' } },
      required_properties: ['name'],
    },
  },
  relationship_types: {
    WORKS_AT: {
      name: 'WORKS_AT',
      label: 'Works at',
      allowed_source_types: ['Person'],
      allowed_target_types: ['Company'],
      properties: { since: { type: 'datetime', required: true } },
    },
  },
};

const ana = {
  id: 'p1',
  type: 'Person',
  properties: {
    name: 'Ana',
    email: 'ana@example.com',
    tier: 'gold',
    age: 41,
    score: 0.5,
    vip: true,
    tags: ['a'],
    born: '1984-02-03',
    extra: { k: 1 },
  },
};
const acme = { id: 'c1', type: 'Company', properties: { name: 'Acme' } };
const worksAt = { source: 'p1', target: 'c1', type: 'WORKS_AT', properties: { since: '2020-01-01T09:00:00Z' } };
const codes = (ps: { field: string; code: string }[]) => ps.map((p) => `${p.field} ${p.code}`);

describe('validateNodesAgainstSchema', () => {
  it('accepts nodes and relationships that fit (undeclared properties allowed, defaults satisfy required)', () => {
    assert.deepEqual(
      validateNodesAgainstSchema(
        schema,
        [{ ...ana, properties: { ...ana.properties, nickname: 'A' } }, acme],
        [worksAt],
      ),
      [],
    );
  });

  it('reports unknown node types (missing type too), unless listed as extra types', () => {
    assert.deepEqual(codes(validateNodesAgainstSchema(schema, [{ id: 'x', type: 'Planet' }, { id: 'y' }], [])), [
      'nodes.0.type unknown_node_type',
      'nodes.1.type unknown_node_type',
    ]);
    assert.deepEqual(
      validateNodesAgainstSchema(schema, [{ id: 'x', type: 'Memory' }], [], { extraNodeTypes: ['Memory'] }),
      [],
    );
  });

  it('reports missing required properties, from `required` and from `required_properties`', () => {
    const ps = validateNodesAgainstSchema(schema, [
      { id: 'p', type: 'Person', properties: { name: null } },
      { id: 'c', type: 'Company' },
    ]);
    assert.deepEqual(codes(ps), [
      'nodes.0.properties.name missing_required_property',
      'nodes.1.properties.name missing_required_property',
    ]);
    assert.match(ps[0].message, /"name"/);
  });

  it('reports enum violations, for strings and for each array element', () => {
    const ps = validateNodesAgainstSchema(schema, [
      { id: 'p', type: 'Person', properties: { name: 'Ana', tier: 'platinum', tags: ['a', 'z'] } },
    ]);
    assert.deepEqual(codes(ps), ['nodes.0.properties.tier enum_violation', 'nodes.0.properties.tags enum_violation']);
    assert.match(ps[0].message, /"platinum" is not one of/);
    assert.match(ps[1].message, /"z"/);
  });

  it('reports a wrong type for every property type', () => {
    const props = {
      name: 7,
      email: false,
      tier: ['gold'],
      age: 4.5,
      score: '0.5',
      vip: 'true',
      tags: 'a',
      born: 'yesterday',
      extra: [1],
    };
    const ps = validateNodesAgainstSchema(schema, [{ id: 'p', type: 'Person', properties: props }]);
    assert.deepEqual(
      ps.map((p) => p.field.split('.').pop()),
      Object.keys(props),
    );
    assert.ok(
      ps.every((p) => p.code === 'wrong_property_type'),
      JSON.stringify(ps),
    );
    assert.match(ps.find((p) => p.field.endsWith('.age'))!.message, /Expected integer, got number/);
  });

  it('reports values out of range, too short or long, or not matching the pattern', () => {
    const ps = validateNodesAgainstSchema(schema, [
      { id: 'p', type: 'Person', properties: { name: 'A', age: 151, email: 'not-an-email' } },
      { id: 'q', type: 'Person', properties: { name: 'x'.repeat(41), age: -1 } },
    ]);
    assert.deepEqual(codes(ps), [
      'nodes.0.properties.name out_of_range',
      'nodes.0.properties.email pattern_mismatch',
      'nodes.0.properties.age out_of_range',
      'nodes.1.properties.name out_of_range',
      'nodes.1.properties.age out_of_range',
    ]);
  });

  it('reports relationship types not in the schema and endpoints of the wrong type', () => {
    const ps = validateNodesAgainstSchema(
      schema,
      [ana, acme],
      [
        { source: 'p1', target: 'c1', type: 'OWNS' },
        { source: 'c1', target: 'p1', type: 'WORKS_AT', properties: { since: '2020-01-01' } },
      ],
    );
    assert.deepEqual(codes(ps), [
      'relationships.0.type unknown_relationship_type',
      'relationships.1.source invalid_relationship_source',
      'relationships.1.target invalid_relationship_target',
    ]);
    assert.match(ps[1].message, /WORKS_AT does not allow a Company source \(allowed: Person\)/);
  });

  it('checks relationship properties, unknown node references and skips $this / $previous', () => {
    const ps = validateNodesAgainstSchema(
      schema,
      [ana],
      [
        { source: 'p1', target: 'ghost', type: 'WORKS_AT', properties: { since: 'soon' } },
        { source: '$this', target: '$previous', type: 'WORKS_AT', properties: { since: '2021-05-01' } },
        { target: 'p1', type: 'WORKS_AT' },
      ],
    );
    assert.deepEqual(codes(ps), [
      'relationships.0.target unknown_node_reference',
      'relationships.0.properties.since wrong_property_type',
      'relationships.2.source unknown_node_reference',
      'relationships.2.target invalid_relationship_target',
      'relationships.2.properties.since missing_required_property',
    ]);
  });

  it('resolves existing nodes through typeOfNode and accepts the legacy manual field names', () => {
    const existing = new Map([['c9', 'Company']]);
    const ps = validateNodesAgainstSchema(
      schema,
      [{ id: 'p1', label: 'Person', properties: { name: 'Ana' } }],
      [
        {
          source_node_id: 'p1',
          target_node_id: 'c9',
          relationship_type: 'WORKS_AT',
          properties: { since: '2020-01-01' },
        },
      ],
      { typeOfNode: (id) => existing.get(id) },
    );
    assert.deepEqual(ps, []);
  });

  it('reports under the given field paths', () => {
    const ps = validateNodesAgainstSchema(
      schema,
      [{ id: 'x', type: 'Planet' }],
      [{ source: 'x', target: 'x', type: 'NOPE' }],
      {
        nodesField: 'memory_policy.nodes',
        relationshipsField: 'memory_policy.relationships',
      },
    );
    assert.deepEqual(codes(ps), [
      'memory_policy.nodes.0.type unknown_node_type',
      'memory_policy.relationships.0.type unknown_relationship_type',
    ]);
  });
});

describe('assertNodesMatchSchema', () => {
  it('passes silently when valid and throws a 422 AppError listing every problem otherwise', () => {
    assertNodesMatchSchema(schema, [ana, acme], [worksAt]);
    const err = (() => {
      try {
        assertNodesMatchSchema(schema, [{ id: 'p', type: 'Person', properties: { tier: 'x' } }], [], {
          location: 'memory',
        });
      } catch (e) {
        return e;
      }
    })();
    assert.ok(err instanceof AppError);
    assert.equal(err.code, 422);
    assert.match(
      err.message,
      /^The graph does not match schema crm: nodes\.0\.properties\.name: Required property "name" is missing \(and 1 more\)$/,
    );
    assert.deepEqual(
      (err.details as any).issues.map((i: any) => [i.location, i.field, i.code]),
      [
        ['memory', 'nodes.0.properties.name', 'missing_required_property'],
        ['memory', 'nodes.0.properties.tier', 'enum_violation'],
      ],
    );
  });
});

describe('definitionProblems and helpers', () => {
  const t = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`T${i}`, {}]));
  it('enforces the four limits exactly at their boundaries', () => {
    const rels = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`R${i}`, { allowed_source_types: ['T0'], allowed_target_types: ['T0'] }]),
      );
    const props = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' as const }]));
    const enums = (n: number) => ({
      tier: { type: 'string' as const, enum_values: Array.from({ length: n }, (_, i) => `v${i}`) },
    });
    assert.deepEqual(
      definitionProblems({ node_types: { ...t(9), Big: { properties: props(10) } }, relationship_types: rels(20) }),
      [],
    );
    assert.deepEqual(definitionProblems({ node_types: { E: { properties: enums(15) } }, relationship_types: {} }), []);
    assert.deepEqual(codes(definitionProblems({ node_types: t(11), relationship_types: rels(21) })), [
      'node_types limit_exceeded',
      'relationship_types limit_exceeded',
    ]);
    assert.deepEqual(
      codes(definitionProblems({ node_types: { P: { properties: props(11) } }, relationship_types: {} })),
      ['node_types.P.properties limit_exceeded'],
    );
    assert.deepEqual(
      codes(definitionProblems({ node_types: { P: { properties: enums(16) } }, relationship_types: {} })),
      ['node_types.P.properties.tier.enum_values limit_exceeded'],
    );
  });

  it('reports definitions that contradict themselves', () => {
    const ps = definitionProblems({
      node_types: {
        P: {
          name: 'Q',
          properties: {
            a: { type: 'integer', default: 'x' },
            b: { type: 'string', min_length: 3, max_length: 1 },
            c: { type: 'string', enum_values: ['x', ''] },
          },
          required_properties: ['zz'],
          unique_identifiers: ['a', 'yy'],
        },
      },
      relationship_types: {
        R: {
          name: 'S',
          allowed_source_types: ['P'],
          allowed_target_types: ['P'],
          properties: { w: { type: 'float', min_value: 2, max_value: 1 } },
        },
      },
    });
    assert.deepEqual(codes(ps), [
      'node_types.P.name invalid_definition',
      'node_types.P.properties.a.default invalid_definition',
      'node_types.P.properties.b.min_length invalid_definition',
      'node_types.P.properties.c.enum_values invalid_definition',
      'node_types.P.required_properties invalid_definition',
      'node_types.P.unique_identifiers invalid_definition',
      'relationship_types.R.name invalid_definition',
      'relationship_types.R.properties.w.min_value invalid_definition',
    ]);
  });

  const withPattern = (pattern: string, extra: object = {}): GraphSchemaDefinition => ({
    node_types: { P: { properties: { p: { type: 'string', pattern, ...extra } } } },
    relationship_types: {},
  });

  it('runs patterns with RE2: the ReDoS probe and classic backtracking bombs answer at once', () => {
    // Issue #17 finding 1: with RegExp this default took 36 s on the event loop.
    const started = performance.now();
    const probe = definitionProblems(withPattern('^\\d*\\d*\\d*\\d*\\d*\\d*$', { default: '1'.repeat(115) + 'x' }));
    assert.deepEqual(codes(probe), ['node_types.P.properties.p.default invalid_definition']);
    assert.match(probe[0].message, /Does not match pattern/);
    // Nested quantifiers were refused as unsafe; in linear time they are ordinary patterns now.
    for (const [pattern, text] of [
      ['(a+)+$', 'a'.repeat(50_000) + 'b'],
      ['(a|aa)*b$', 'a'.repeat(50_000)],
      ['(x+x+)+y', 'x'.repeat(50_000)],
      ['^(\\w*)*$', 'w'.repeat(50_000) + '!'],
    ]) {
      assert.deepEqual(definitionProblems(withPattern(pattern)), [], pattern);
      assert.equal(valueProblem({ type: 'string', pattern }, text)?.code, 'pattern_mismatch', pattern);
    }
    // Generous: ~10 ms here; the point is seconds or minutes before.
    assert.ok(performance.now() - started < 1000, `took ${performance.now() - started} ms`);
  });

  it('refuses at definition, saying why, patterns RE2 cannot run or that are too large', () => {
    const why = (pattern: string) => {
      const ps = definitionProblems(withPattern(pattern));
      assert.deepEqual(codes(ps), ['node_types.P.properties.p.pattern invalid_definition'], pattern);
      return ps[0].message;
    };
    assert.match(why('(a)\\1'), /back-reference/);
    assert.match(why('(?<n>a)\\k<n>'), /back-reference/);
    for (const p of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) assert.match(why(p), /lookaround/, p);
    assert.match(why('(['), /not valid RE2 syntax/);
    assert.match(why('\\u00e9'), /not valid RE2 syntax.*\\u/);
    assert.match(why('[ab]{1,1000}c{1,1000}'), /too large: it compiles to \d+ instructions, at most 1000/);
    // Far too large: refused from its text, before compiling it (which would take ~0.3 s).
    assert.match(why('(?:\\pL{1,1000})'.repeat(12)), /too large: it would compile to about 24024 instructions/);
    // RE2 syntax, including escapes the original (Python) service accepted and named groups.
    for (const p of [
      '^[a-z\\_]+$',
      '^(?P<code>[A-Z]{2})-\\d{1,8}$',
      '(?i)^caf\\x{e9}$',
      '^\\p{Lu}\\p{Ll}+$',
      '^.{1,255}$',
    ])
      assert.deepEqual(definitionProblems(withPattern(p)), [], p);
    assert.equal(valueProblem({ type: 'string', pattern: '(?i)^caf\\x{e9}$' }, 'CAFÉ'), null);
  });

  it("bounds one schema's patterns in total and one check's matching", () => {
    const big = (i: number) => `^[ab]{${900 + i}}$`; // ~900 instructions each, all different
    const props = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`p${i}`, { type: 'string' as const, pattern: big(i) }]),
    );
    const more = Object.fromEntries(
      Array.from({ length: 2 }, (_, i) => [`q${i}`, { type: 'string' as const, pattern: big(10 + i) }]),
    );
    const ps = definitionProblems({
      node_types: { A: { properties: props }, B: { properties: more } },
      relationship_types: {},
    });
    assert.deepEqual(codes(ps), ['node_types.B.properties.q1.pattern invalid_definition']);
    assert.match(ps[0].message, new RegExp(`together at most ${PATTERN_LIMITS.schemaSize}`));

    // Value length × pattern size, summed over one call: ~10,000 characters against ~1000 instructions.
    const worst = '[ab]*a[ab]{990}$';
    const s: GraphSchemaDefinition = {
      node_types: { P: { properties: { p: { type: 'string', pattern: worst } } } },
      relationship_types: {},
    };
    const text = 'ba'.repeat(2500); // matches: an a 991 characters from the end
    const node = (i: number) => ({ id: `n${i}`, type: 'P', properties: { p: text } });
    assert.deepEqual(validateNodesAgainstSchema(s, [node(0)]), []);
    const problems = validateNodesAgainstSchema(s, [node(0), node(1), node(2)]);
    assert.deepEqual(codes(problems), ['nodes.2.properties.p limit_exceeded']);
    assert.match(problems[0].message, /Too much text to check against patterns/);
  });

  it('a stored pattern RE2 refuses is reported on every value, never skipped', () => {
    assert.deepEqual(valueProblem({ type: 'string', pattern: '(a)\\1' }, 'aa'), {
      code: 'invalid_definition',
      message:
        "The schema's pattern (a)\\1 uses a back-reference (\\1, \\k<name>), " +
        'which RE2 syntax does not have; update the schema',
    });
  });

  it('valueProblem checks type before enum, and compares enums as text', () => {
    assert.equal(valueProblem({ type: 'integer', enum_values: ['1', '2'] }, 2), null);
    assert.equal(valueProblem({ type: 'integer', enum_values: ['1', '2'] }, 3)?.code, 'enum_violation');
    assert.equal(valueProblem({ type: 'integer', enum_values: ['1'] }, '1')?.code, 'wrong_property_type');
    assert.equal(valueProblem({ type: 'datetime' }, '2024-02-03T10:00:00+02:00'), null);
    // Escapes the original (Python) service accepted but unicode-mode regexps refuse still work.
    assert.equal(valueProblem({ type: 'string', pattern: '^[a-z\\_]+$' }, 'snake_case'), null);
    assert.equal(valueProblem({ type: 'string', pattern: '^[a-z\\_]+$' }, 'Camel')?.code, 'pattern_mismatch');
    assert.equal(valueProblem({ type: 'datetime' }, '2024-13-45')?.code, 'wrong_property_type');
  });
});
