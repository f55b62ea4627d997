import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import {
  DEFAULT_NODE_TYPES,
  DEFAULT_RELATIONSHIP_TYPES,
  ExtractorError,
  LOCAL_EXTRACTOR_ID,
  restrictToSchema,
  type Extraction,
  type GraphSchema,
} from './extractor.ts';
import { createLocalExtractor, splitSpeaker } from './extractor.local.ts';
import { threadedLocalExtractor } from './extractor-thread.ts';

/** Monday 8 May 2023, 13:56 UTC: the reference date of the relative-date cases. */
const MONDAY = new Date('2023-05-08T13:56:00Z');
const extractor = createLocalExtractor();
const run = (content: string, extra: { speaker?: string; createdAt?: Date; schema?: GraphSchema } = {}) =>
  extractor.extract({ content, createdAt: MONDAY, ...extra });

/** `Type:Name` of every node, for compact assertions. */
const names = (x: Extraction) => x.nodes.map((n) => `${n.type}:${n.name}`);
/** `Source -TYPE-> Target` (by node name) of every relationship. */
const edges = (x: Extraction) => {
  const name = (key: string) => x.nodes.find((n) => n.key === key)?.name ?? `?${key}`;
  return x.relationships.map((r) => `${name(r.source)} -${r.type}-> ${name(r.target)}`);
};
const edge = (x: Extraction, text: string) => {
  const i = edges(x).indexOf(text);
  assert.ok(i >= 0, `expected ${text} in ${JSON.stringify(edges(x))}`);
  return x.relationships[i];
};
const includesAll = (actual: string[], expected: string[]) => {
  for (const e of expected) assert.ok(actual.includes(e), `expected ${e} in ${JSON.stringify(actual)}`);
};

describe('local extractor', () => {
  it('reads a LoCoMo turn: the speaker from "X said", a topic, a resolved date and a dated VISITED edge', async () => {
    const x = await run('Caroline said, "I went to a LGBTQ support group yesterday and it was so powerful."');
    assert.equal(extractor.id, 'local-rules-1');
    const speaker = x.nodes.find((n) => n.key === 'speaker');
    assert.deepEqual([speaker?.type, speaker?.name], ['Person', 'Caroline']);
    includesAll(names(x), ['Topic:LGBTQ Support Group', 'Date:2023-05-07']);
    assert.deepEqual(x.nodes.find((n) => n.type === 'Date')?.properties, { granularity: 'day', text: 'yesterday' });
    assert.deepEqual(edge(x, 'Caroline -VISITED-> LGBTQ Support Group').properties, { date: '2023-05-07' });
  });

  it('finds people, organisations and places with WORKS_AT, LIVES_IN and a FAMILY relation through "my"', async () => {
    const x = await run('My sister Jane works at Google and lives in San Francisco.', { speaker: 'Sam' });
    includesAll(names(x), ['Person:Sam', 'Person:Jane', 'Organization:Google', 'Place:San Francisco']);
    includesAll(edges(x), ['Jane -WORKS_AT-> Google', 'Jane -LIVES_IN-> San Francisco']);
    assert.deepEqual(edge(x, 'Sam -FAMILY-> Jane').properties, { relation: 'sister' });
  });

  it('leaves the speaker out when nothing names them, but keeps the other facts', async () => {
    const x = await run('My sister Jane works at Google.');
    assert.equal(
      x.nodes.find((n) => n.key === 'speaker'),
      undefined,
    );
    assert.ok(!edges(x).some((e) => e.includes('FAMILY')));
    includesAll(edges(x), ['Jane -WORKS_AT-> Google']);
  });

  it('carries the subject across "and" and an apposition', async () => {
    const a = await run('Caroline works for the Red Cross, and lives in New York City.');
    includesAll(edges(a), ['Caroline -WORKS_AT-> Red Cross', 'Caroline -LIVES_IN-> New York City']);
    const b = await run('Tom, my husband, works for Acme Corp.', { speaker: 'Ann' });
    includesAll(edges(b), ['Ann -MARRIED_TO-> Tom', 'Tom -WORKS_AT-> Acme Corp']);
  });

  it('reads MANAGES both ways, MARRIED_TO, MET and FRIEND', async () => {
    const a = await run('Bob is my manager. Alice manages the sales team.', { speaker: 'Sam' });
    includesAll(edges(a), ['Bob -MANAGES-> Sam', 'Alice -MANAGES-> Sales Team']);
    const b = await run('Melanie married Tom in June 2020.');
    assert.deepEqual(edge(b, 'Melanie -MARRIED_TO-> Tom').properties, { date: '2020-06' });
    const c = await run('John and Mary got married 3 years ago.');
    includesAll(edges(c), ['John -MARRIED_TO-> Mary']);
    includesAll(names(c), ['Date:2020']);
    const d = await run('Yesterday I met Sarah in Boston. Jane is my best friend.', { speaker: 'Sam' });
    includesAll(edges(d), ['Sam -MET-> Sarah']);
    assert.deepEqual(edge(d, 'Sam -FRIEND-> Jane').properties, { relation: 'best friend' });
  });

  it('types kinship from a possessive name: "John\'s brother Mike"', async () => {
    const x = await run("John's brother Mike uses Microsoft Teams every day.");
    includesAll(names(x), ['Person:John', 'Person:Mike', 'Product:Microsoft Teams']);
    assert.deepEqual(edge(x, 'John -FAMILY-> Mike').properties, { relation: 'brother' });
    includesAll(edges(x), ['Mike -USES-> Microsoft Teams']);
    assert.deepEqual(
      x.nodes.find((n) => n.name === 'John')?.mentions,
      ["John's"],
      'the mention keeps the surface form',
    );
  });

  it('finds products after buying verbs and by their shape', async () => {
    const x = await run('I bought a new iPhone 15 Pro last month and my son wants a PS5.', { speaker: 'Sam' });
    includesAll(names(x), ['Product:iPhone 15 Pro', 'Product:PS5', 'Date:2023-04']);
    assert.deepEqual(edge(x, 'Sam -BOUGHT-> iPhone 15 Pro').properties, { date: '2023-04' });
  });

  it('links visits, events and likes, and continues a list', async () => {
    const a = await run('Last summer Anna visited Rome and Paris.');
    includesAll(edges(a), ['Anna -VISITED-> Rome', 'Anna -VISITED-> Paris']);
    includesAll(names(a), ['Date:2022']);
    const b = await run('Melanie: I ran a charity race for mental health last Saturday. I love painting and hiking.');
    includesAll(names(b), [
      'Event:Charity Race',
      'Topic:Mental Health',
      'Topic:Painting',
      'Topic:Hiking',
      'Date:2023-05-06',
    ]);
    includesAll(edges(b), ['Melanie -ATTENDED-> Charity Race', 'Melanie -LIKES-> Painting', 'Melanie -LIKES-> Hiking']);
  });

  it('resolves relative and partial dates against createdAt', async () => {
    const cases: [string, string, string][] = [
      ['We talked two days ago.', '2023-05-06', 'day'],
      ['Anna left last week.', '2023-W18', 'week'],
      ['I paid the bill last month.', '2023-04', 'month'],
      ['I will see her next Friday.', '2023-05-12', 'day'],
      ['I went hiking on Saturday.', '2023-05-06', 'day'],
      ['We camped last weekend.', '2023-05-06', 'weekend'],
      ['I visited Lisbon in March.', '2023-03', 'month'],
      ['I visited Lisbon in December.', '2022-12', 'month'],
      ['She was born on May 3, 2021.', '2021-05-03', 'day'],
      ['The exam was on 7 May 2023.', '2023-05-07', 'day'],
      ['I will fly out on the 5th of June.', '2023-06-05', 'day'],
      ['It happened in 2019.', '2019', 'year'],
      ['I joined a new activist group last Tues.', '2023-05-02', 'day'],
      ['We moved here a couple of years ago.', '2021', 'year'],
    ];
    for (const [content, iso, granularity] of cases) {
      const dates = (await run(content)).nodes.filter((n) => n.type === 'Date');
      assert.deepEqual(
        dates.map((d) => [d.name, d.properties.granularity]),
        [[iso, granularity]],
        content,
      );
    }
  });

  it('drops relative dates without a reference date, and never turns them into topics', async () => {
    const x = await extractor.extract({ content: 'Yesterday I visited Lisbon. In 2019 I lived in Porto.' });
    assert.deepEqual(names(x).sort(), ['Date:2019', 'Place:Lisbon', 'Place:Porto']);
  });

  it('canonicalises and merges names: honorifics, possessives, short forms', async () => {
    const a = await run('Dr. Smith reviewed the scan. Smith said the tumor was benign.');
    const smith = a.nodes.filter((n) => n.type === 'Person');
    assert.equal(smith.length, 1);
    assert.equal(smith[0].name, 'Smith');
    assert.deepEqual(smith[0].properties, { title: 'Dr.' });
    assert.deepEqual(smith[0].mentions, ['Dr. Smith', 'Smith']);
    const b = await run('John Smith called. Later Smith sent the report and John apologised.');
    assert.deepEqual(
      b.nodes.filter((n) => n.type === 'Person').map((n) => n.name),
      ['John Smith'],
    );
    const c = await run("Google's office in London is huge. I love google.");
    assert.deepEqual(
      c.nodes.filter((n) => n.type === 'Organization').map((n) => n.name),
      ['Google'],
    );
  });

  it('finds the speaker in a self-introduction in the context', async () => {
    const x = await extractor.extract({
      content: 'I moved to Berlin last year.',
      createdAt: MONDAY,
      context: [
        { role: 'user', content: 'Hi there, my name is Priya.' },
        { role: 'assistant', content: 'Nice to meet you! I am Claude.' },
      ],
    });
    assert.deepEqual(edge(x, 'Priya -LIVES_IN-> Berlin').properties, { date: '2022' });
    assert.equal(splitSpeaker({ content: 'I am tired.' }).speaker, undefined, '"I am tired" names nobody');
    assert.equal(
      splitSpeaker({ content: 'Reminder: I need to call the bank.' }).speaker,
      undefined,
      'a label is not a speaker',
    );
    assert.deepEqual(splitSpeaker({ content: 'Melanie: I ran a race.' }), {
      speaker: 'Melanie',
      text: 'I ran a race.',
    });
    assert.deepEqual(splitSpeaker({ content: 'Jon said, "I did it" and shared a photo.', speaker: 'Jon B' }), {
      speaker: 'Jon B',
      text: 'I did it and shared a photo.',
    });
  });

  it('does not relate an addressed name to what is said', async () => {
    const x = await run('Thanks, Mel! I love pottery.', { speaker: 'Caroline' });
    includesAll(names(x), ['Person:Mel']);
    includesAll(edges(x), ['Caroline -LIKES-> Pottery']);
    assert.ok(!edges(x).some((e) => e.startsWith('Mel ') || e.endsWith(' Mel')), JSON.stringify(edges(x)));
  });

  it('keeps topics salient, lemmatised and capped; co-occurrence capped too', async () => {
    const content =
      'The garden needs work: tomatoes, cucumbers, peppers, carrots, onions and herbs. ' +
      'The tomatoes are red and the compost bin is full. Our neighbours admire the garden and the greenhouse.';
    const x = await createLocalExtractor({ maxTopics: 3, maxCooccurrences: 2 }).extract({ content });
    const topics = x.nodes.filter((n) => n.type === 'Topic').map((n) => n.name);
    assert.equal(topics.length, 3);
    includesAll(topics, ['Garden', 'Tomato', 'Compost Bin']);
    assert.ok(x.relationships.filter((r) => r.type === 'MENTIONED_WITH').length <= 2);
  });

  it('restricts output to a user schema', async () => {
    const schema: GraphSchema = {
      node_types: [
        { name: 'Person', properties: [{ name: 'name', type: 'string', required: true }] },
        { name: 'Company', properties: [{ name: 'name', type: 'string' }] },
      ],
      relationship_types: [{ name: 'WORKS_FOR', source_types: ['Person'], target_types: ['Company'] }],
    };
    const x = await run('My sister Jane works at Google and lives in San Francisco.', { speaker: 'Sam', schema });
    assert.deepEqual(names(x).sort(), ['Company:Google', 'Person:Jane', 'Person:Sam']);
    assert.deepEqual(edges(x), ['Jane -WORKS_FOR-> Google']);
    assert.deepEqual(x.nodes.find((n) => n.name === 'Jane')?.properties, { name: 'Jane' });
  });

  it('restrictToSchema enforces required properties, enums and endpoint types', () => {
    const extraction: Extraction = {
      nodes: [
        { key: 'a', type: 'Person', name: 'Ann', properties: { level: 'senior' }, mentions: ['Ann'] },
        { key: 'b', type: 'Person', name: 'Bob', properties: { level: 'wizard' }, mentions: ['Bob'] },
        { key: 'c', type: 'Place', name: 'Oslo', properties: {}, mentions: ['Oslo'] },
      ],
      relationships: [
        { source: 'a', target: 'c', type: 'LIVES_IN' },
        { source: 'c', target: 'a', type: 'lives in' },
        { source: 'a', target: 'b', type: 'LIVES_IN' },
      ],
    };
    const schema: GraphSchema = {
      node_types: [
        {
          name: 'Employee',
          properties: [{ name: 'level', type: 'string', required: true, enum: ['junior', 'senior'] }],
        },
        { name: 'Location', properties: [] },
      ],
      relationship_types: [{ name: 'ResidesIn', source_types: ['Employee'], target_types: ['Location'] }],
    };
    const out = restrictToSchema(extraction, schema);
    assert.deepEqual(
      out.nodes.map((n) => [n.key, n.type, n.properties]),
      [
        ['a', 'Employee', { level: 'senior' }],
        ['c', 'Location', {}],
      ],
    );
    assert.deepEqual(out.relationships, [{ source: 'a', target: 'c', type: 'ResidesIn' }]);
    assert.equal(restrictToSchema(extraction, undefined), extraction);
  });

  it('handles empty and odd input', async () => {
    assert.deepEqual(await extractor.extract({ content: '' }), { nodes: [], relationships: [] });
    const x = await run('constructor toString hasOwnProperty __proto__ last constructor');
    for (const n of x.nodes) assert.ok(DEFAULT_NODE_TYPES.includes(n.type as never));
  });

  it('produces well-formed output on real conversation turns (speed is reported, not asserted)', async (t) => {
    const file = '/work/shared/data/locomo/locomo-dev.json';
    if (!fs.existsSync(file)) return t.skip('LoCoMo data not present');
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { conversation: Record<string, unknown> }[];
    const turns = Object.entries(raw[0].conversation)
      .filter(([k]) => /^session_\d+$/.test(k))
      .flatMap(([, v]) => v as { speaker: string; text: string }[])
      .slice(0, 300);
    const started = performance.now();
    for (const turn of turns) {
      const x = await run(`${turn.speaker} said, "${turn.text}"`);
      const keys = new Set(x.nodes.map((n) => n.key));
      assert.equal(keys.size, x.nodes.length, 'node keys are unique');
      assert.equal(x.nodes.find((n) => n.key === 'speaker')?.name, turn.speaker);
      for (const n of x.nodes) {
        assert.ok(DEFAULT_NODE_TYPES.includes(n.type as never), n.type);
        assert.ok(n.name.trim() === n.name && n.name.length > 0 && n.mentions.length > 0, JSON.stringify(n));
      }
      for (const r of x.relationships) {
        assert.ok(keys.has(r.source) && keys.has(r.target) && r.source !== r.target, JSON.stringify(r));
        assert.ok(DEFAULT_RELATIONSHIP_TYPES.includes(r.type as never), r.type);
      }
    }
    t.diagnostic(`${((performance.now() - started) / turns.length).toFixed(2)} ms per turn over ${turns.length} turns`);
  });
});

describe('local extractor in its thread (EXTRACTOR_THREAD)', () => {
  const texts = [
    'Caroline said, "I went to a LGBTQ support group yesterday and it was so powerful."',
    'My sister Anna moved to Lisbon in May 2023 and works at Google.',
    'We bought an iPhone 15 for Dad last week.',
  ];

  it('returns what the in-process extractor returns, dates included', async () => {
    const threaded = threadedLocalExtractor(LOCAL_EXTRACTOR_ID);
    try {
      for (const content of texts) {
        const input = { content, createdAt: MONDAY, speaker: 'Caroline' };
        assert.deepEqual(await threaded.extract(input), await extractor.extract(input));
      }
    } finally {
      await threaded.close();
    }
  });

  it(
    'runs at the background priority it is given (Linux nice, per thread)',
    { skip: process.platform !== 'linux' },
    async () => {
      // The nice value of each of this process's threads: field 19 of /proc/self/task/<tid>/stat.
      const nices = () =>
        fs.readdirSync('/proc/self/task').map((tid) => {
          const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
        });
      assert.ok(!nices().includes(7));
      const threaded = threadedLocalExtractor(LOCAL_EXTRACTOR_ID, { nice: 7 });
      try {
        await threaded.extract({ content: texts[1], createdAt: MONDAY });
        assert.equal(nices().filter((n) => n === 7).length, 1, 'exactly the extractor thread runs at nice 7');
      } finally {
        await threaded.close();
      }
    },
  );

  it('fails the calls a dead thread held (retryable) and starts a new thread for the next call', async () => {
    const threaded = threadedLocalExtractor(LOCAL_EXTRACTOR_ID);
    try {
      const held = threaded.extract({ content: texts[1], createdAt: MONDAY });
      await threaded.close(); // ends the thread with the call in it, as a crash would
      await assert.rejects(held, (err: unknown) => err instanceof ExtractorError && err.retryable);
      const again = await threaded.extract({ content: texts[1], createdAt: MONDAY });
      assert.ok(names(again).includes('Place:Lisbon'), names(again).join(', '));
    } finally {
      await threaded.close();
    }
  });
});
