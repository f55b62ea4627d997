/**
 * The hostile values the fuzz puts everywhere: boundary strings (NUL, lone surrogates, huge,
 * traversal, injection-looking), boundary numbers (1e308, -0, numbers JSON cannot hold),
 * wrong shapes, deep nesting, and the mutations that turn a documented body into a malformed
 * one. Large and unrepresentable values are `Raw` tokens, printed by name in a counterexample
 * and spliced into the JSON text only when the request is sent.
 */
import fc from 'fast-check';

const RAW_MARK = /"@@fuzz-raw-(\d+)@@"/g;
const raws: Raw[] = [];

/** JSON text that cannot (or should not) live in a generated value: big, deep or not a JS number. */
export class Raw {
  private readonly index: number;
  private cached?: string;
  constructor(
    readonly label: string,
    private readonly make: () => string,
  ) {
    this.index = raws.push(this) - 1;
  }
  get text(): string {
    return (this.cached ??= this.make());
  }
  toJSON(): string {
    return `@@fuzz-raw-${this.index}@@`;
  }
  [fc.toStringMethod](): string {
    return `Raw(${this.label})`;
  }
}

/** JSON text of `value`, with every Raw token replaced by its text. */
export function toJsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  const text = JSON.stringify(value) ?? '';
  return text.replace(RAW_MARK, (_, i: string) => raws[Number(i)].text);
}

const repeat = (s: string, n: number) => s.repeat(n);
const deepArray = (n: number) => new Raw(`[${n} nested arrays]`, () => repeat('[', n) + repeat(']', n));
const deepObject = (n: number) => new Raw(`{${n} nested objects}`, () => repeat('{"a":', n) + 'null' + repeat('}', n));

/** Raw JSON values: numbers JSON.parse turns into Infinity or loses, and big or deep structures. */
export const RAW_VALUES = [
  new Raw('1e999', () => '1e999'),
  new Raw('-1e999', () => '-1e999'),
  new Raw('1e-400', () => '1e-400'),
  new Raw('-0', () => '-0'),
  new Raw('2^100', () => '1267650600228229401496703205376'),
  new Raw('9007199254740993', () => '9007199254740993'),
  new Raw('"a"×15001', () => JSON.stringify(repeat('a', 15_001))),
  new Raw('"é"×10000', () => JSON.stringify(repeat('é', 10_000))),
  new Raw('"😀"×5000', () => JSON.stringify(repeat('😀', 5_000))),
  new Raw('"x"×2MB', () => JSON.stringify(repeat('x', 2_000_000))),
  new Raw('"\\u0000"×5000', () => JSON.stringify(repeat('\u0000', 5_000))),
  new Raw('[0]×20000', () => `[${repeat('0,', 19_999)}0]`),
  new Raw('["s"]×5000', () => `[${repeat('"s",', 4_999)}"s"]`),
  new Raw('{5000 keys}', () => `{${Array.from({ length: 5_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`),
  deepArray(65),
  deepArray(3_000),
  deepArray(100_000),
  deepObject(65),
  deepObject(5_000),
];

/** Whole request bodies that are not JSON at all, or are JSON with a trap in the text. */
export const RAW_BODIES = [
  new Raw('empty', () => ''),
  new Raw('{', () => '{'),
  new Raw('not json', () => 'not json'),
  new Raw('trailing comma', () => '{"a":1,}'),
  new Raw('duplicate keys', () => '{"content":"a","content":{"x":1}}'),
  new Raw('__proto__', () => '{"__proto__":{"polluted":true},"content":"x"}'),
  new Raw('constructor.prototype', () => '{"constructor":{"prototype":{"polluted":true}}}'),
  new Raw('BOM + {}', () => '\ufeff{}'),
  new Raw('NaN', () => '{"a":NaN}'),
  new Raw('single quotes', () => "{'a':1}"),
  new Raw('raw NUL in string', () => '{"content":"a\u0000b"}'),
  new Raw('unterminated string', () => '{"content":"abc'),
  new Raw('over the body limit (11 MB)', () => `{"content":"${repeat('x', 11 * 1024 * 1024)}"}`),
];

/** Strings that have broken services before: empty, control, surrogates, paths, injections, ACL-like. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  '\ufeff',
  '\u202eevil',
  '😀',
  '日本語のテキスト',
  'e\u0301',
  '\n\r\t',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e308',
  '-1e308',
  '1e999',
  '0x10',
  '99999999999999999999999',
  '-1',
  '0',
  '1.5',
  'true',
  'false',
  '..',
  '../../etc/passwd',
  '%00',
  '%',
  '%%',
  '_',
  '*',
  "' OR '1'='1",
  '"; DROP TABLE memories; --',
  '\\',
  '$1',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '(a+)+$',
  '[',
  '(?<',
  'a{99999}',
  '__proto__',
  'constructor',
  'http://169.254.169.254/latest/meta-data/',
  'http://127.0.0.1:1/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'not a url',
  '0000-00-00T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2024-02-30',
  '-271821-04-20T00:00:00Z',
  'user:*',
  'external_user:',
  'namespace:%',
  'organization:00000000-0000-0000-0000-000000000000',
  'role:admin',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

export const NASTY_NUMBERS = [
  0,
  -1,
  1.5,
  -1e-7,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  Number.MAX_SAFE_INTEGER + 2,
  -(2 ** 63),
  1e308,
  -1e308,
  Number.MIN_VALUE,
  Number.MAX_VALUE,
];

/** A JSON object whose own key is "__proto__" (an object literal would set the prototype instead). */
const protoKey = () => JSON.parse('{"__proto__":{"isAdmin":true},"a":1}') as unknown;

/** Printable ASCII or Latin-1, as an HTTP header can carry it. */
export const headerString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    'ek_org_',
    `ek_org_${'0'.repeat(48)}`,
    'ek_ns_x',
    "' OR 1=1 --",
    'ÿþ',
    'x'.repeat(8_000),
  ),
  fc.string({ maxLength: 60 }),
);

/** Text no PostgreSQL text column can hold as is, or that JSON cannot round-trip: the classic 500s. */
export const UNSTORABLE = ['\u0000', 'a\u0000b', '\u0000'.repeat(3), '\ud800', 'x\udfffy', '\udc00\ud800', '\ud83d'];

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...UNSTORABLE) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 24 }) },
);

/** Any hostile JSON value: strings, numbers, raw tokens, wrong shapes, random JSON. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: nastyString },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_NUMBERS) },
  { weight: 3, arbitrary: fc.constantFrom(...RAW_VALUES) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[]], [{}], { '': null }, { $ne: null }),
  },
  { weight: 1, arbitrary: fc.constant(null).map(protoKey) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, nastyString, { maxKeys: 3 }) },
);

/** Encode one URL component; a lone surrogate becomes its WTF-8 bytes (what a sloppy client sends). */
export function encodeComponent(s: string): string {
  let out = '';
  for (const ch of s) {
    const cu = ch.charCodeAt(0);
    if (ch.length === 1 && cu >= 0xd800 && cu <= 0xdfff) {
      for (const b of [0xe0 | (cu >> 12), 0x80 | ((cu >> 6) & 0x3f), 0x80 | (cu & 0x3f)])
        out += `%${b.toString(16).toUpperCase()}`;
    } else out += encodeURIComponent(ch);
  }
  return out;
}
