import { unprocessable } from '../../shared/errors.ts';
import { GRAPH_LIMITS } from './policy.schemas.ts';

/**
 * Parser of the deprecated `link_to` shorthand (spec §2.4): a small recursive-descent
 * parser over the string, one entry at a time (expansion is in `link-to.ts`).
 *
 *   entry    := special | node | via | edge
 *   special  := '$this' | '$previous' | '$context' ':' N            (1 ≤ N ≤ 50)
 *   node     := Type ':' props                                       Task:title
 *   via      := Type ('.via' '(' EDGE '->' Target [':' props] ')')+   Task.via(ASSIGNED_TO->Person:email=a@b.c)
 *   edge     := [Source] '->' EDGE ['->' Target] [':' props]         Person->WORKS_ON->Task:title
 *   props    := prop (',' prop)*
 *   prop     := name                  semantic match, extracted value
 *             | name '=' value        exact match on value
 *             | name '~' value        semantic match on value
 *             | name '~@' T ['~' value]   semantic with threshold T in 0..1
 *
 * Values are raw text, as the official client writes them (`Person:email=john@papr.ai`,
 * `Task:title~auth bug`), trimmed. A raw value ends at the end of the entry, at the `)`
 * closing a `.via(` (balanced parentheses inside a value are kept), or at a comma that
 * starts another `name=` / `name~` property; so `Company:name=Acme, Inc` is one value.
 * A value may also be double-quoted (with `\"` and `\\` escapes) to contain anything.
 * Edge forms without a source or a target (`->EDGE->Target:p`, `Source->EDGE:p`) and the
 * `~@T` threshold are accepted as the reference service accepts them.
 */

/** A special link target: the memory itself, the user's previous memory, the last N conversation memories. */
export type LinkSpecial = { ref: '$this' } | { ref: '$previous' } | { ref: '$context'; count: number };

type RawProp = { name: string; mode: 'exact' | 'semantic'; threshold?: number; value?: string };
type RawVia = { edge_type: string; target_type: string; properties: RawProp[] };

/** One parsed entry, before dict options are applied. */
export type LinkToEntry =
  | { kind: 'node'; node_type: string; properties: RawProp[]; via: RawVia[] }
  | { kind: 'edge'; edge_type: string; source_type?: string; target_type?: string; properties: RawProp[] }
  | { kind: 'special'; special: LinkSpecial };

const NAME = /[\p{L}_][\p{L}\p{N}_]*/uy;
const NUMBER = /\d+(?:\.\d+)?|\.\d+/y;

class Parser {
  private pos = 0;

  constructor(
    private readonly src: string,
    private readonly where: Record<string, unknown>,
  ) {}

  fail(message: string, at = this.pos): never {
    throw unprocessable(`Invalid link_to "${this.src}" at position ${at}: ${message}`, {
      field: 'link_to',
      value: this.src,
      position: at,
      ...this.where,
    });
  }

  private ws(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
  }

  private at(token: string): boolean {
    this.ws();
    return this.src.startsWith(token, this.pos);
  }

  private eat(token: string): boolean {
    if (!this.at(token)) return false;
    this.pos += token.length;
    return true;
  }

  private nameAt(i: number): string | null {
    NAME.lastIndex = i;
    return NAME.exec(this.src)?.[0] ?? null;
  }

  private name(expected: string): string {
    this.ws();
    const n = this.nameAt(this.pos);
    if (n === null) this.fail(`expected ${expected}`);
    if (n.length > GRAPH_LIMITS.name) this.fail(`name longer than ${GRAPH_LIMITS.name} characters`);
    this.pos += n.length;
    return n;
  }

  /** The whole string as one entry. */
  entry(): LinkToEntry {
    if (this.src.length > GRAPH_LIMITS.linkToEntryChars)
      this.fail(`longer than ${GRAPH_LIMITS.linkToEntryChars} characters`, GRAPH_LIMITS.linkToEntryChars);
    this.ws();
    if (this.pos >= this.src.length)
      this.fail('empty entry: expected Type:property, an edge, or $this / $previous / $context:N');
    let e: LinkToEntry;
    if (this.at('$')) e = this.special();
    else if (this.at('->')) e = this.edge(undefined);
    else {
      const type = this.name('a node type');
      if (this.at('->')) e = this.edge(type);
      else if (this.at('.')) e = { kind: 'node', node_type: type, properties: [], via: this.viaChain() };
      else if (this.eat(':')) e = { kind: 'node', node_type: type, properties: this.properties(false), via: [] };
      else this.fail(`expected ':', '->' or '.via(' after "${type}"`);
    }
    this.ws();
    if (this.pos < this.src.length) this.fail(`unexpected "${this.src.slice(this.pos)}"`);
    return e;
  }

  private special(): LinkToEntry {
    const start = this.pos++;
    const word = this.nameAt(this.pos);
    if (word === 'this' || word === 'previous') {
      this.pos += word.length;
      return { kind: 'special', special: { ref: `$${word}` } };
    }
    if (word !== 'context')
      this.fail(
        `unknown reference "${this.src.slice(start).split(/[\s:]/)[0]}"; expected $this, $previous or $context:N`,
        start,
      );
    this.pos += word.length;
    if (!this.eat(':')) this.fail("expected ':N' after $context");
    this.ws();
    NUMBER.lastIndex = this.pos;
    const digits = NUMBER.exec(this.src)?.[0];
    const n = Number(digits);
    if (digits === undefined || !Number.isInteger(n) || n < 1 || n > GRAPH_LIMITS.contextMemories) {
      this.fail(`$context:N needs a whole number N from 1 to ${GRAPH_LIMITS.contextMemories}`);
    }
    this.pos += digits.length;
    return { kind: 'special', special: { ref: '$context', count: n } };
  }

  private edge(source_type: string | undefined): LinkToEntry {
    this.eat('->');
    const edge_type = this.name("an edge type after '->' (dangling arrow)");
    let target_type: string | undefined;
    if (this.eat('->')) target_type = this.name("a target node type after '->' (dangling arrow)");
    const properties = this.eat(':') ? this.properties(false) : [];
    return {
      kind: 'edge',
      edge_type,
      ...(source_type ? { source_type } : {}),
      ...(target_type ? { target_type } : {}),
      properties,
    };
  }

  private viaChain(): RawVia[] {
    const chain: RawVia[] = [];
    while (this.eat('.')) {
      const keywordAt = this.pos;
      if (this.nameAt(this.pos) !== 'via') this.fail("expected 'via' after '.'", keywordAt);
      this.pos += 3;
      this.ws();
      const open = this.pos;
      if (!this.eat('(')) this.fail("expected '(' after '.via'");
      const edge_type = this.name('an edge type in .via(EDGE->Target)');
      if (!this.eat('->')) this.fail("expected '->' after the edge type in .via(");
      const target_type = this.name("a target node type after '->' (dangling arrow)");
      const properties = this.eat(':') ? this.properties(true) : [];
      if (!this.eat(')')) this.fail(`unbalanced parentheses: expected ')' to close the '(' at position ${open}`);
      chain.push({ edge_type, target_type, properties });
      if (chain.length > GRAPH_LIMITS.viaRelationships)
        this.fail(`at most ${GRAPH_LIMITS.viaRelationships} .via( steps`);
    }
    return chain;
  }

  private properties(inVia: boolean): RawProp[] {
    const out: RawProp[] = [];
    do {
      const name = this.name('a property name');
      if (this.eat('=')) out.push({ name, mode: 'exact', value: this.value(inVia, '=') });
      else if (this.eat('~')) out.push({ name, mode: 'semantic', ...this.semanticTail(inVia) });
      else out.push({ name, mode: 'semantic' });
      if (out.length > GRAPH_LIMITS.searchProperties) this.fail(`at most ${GRAPH_LIMITS.searchProperties} properties`);
    } while (this.eat(','));
    return out;
  }

  /** After `~`: `@T`, `@T~value` or `value`. `@` not followed by a lone number is part of the value (`~@alice`). */
  private semanticTail(inVia: boolean): { threshold?: number; value?: string } {
    if (this.src[this.pos] === '@') {
      NUMBER.lastIndex = this.pos + 1;
      const num = NUMBER.exec(this.src)?.[0];
      if (num !== undefined && this.endsValue(this.pos + 1 + num.length, inVia, '~')) {
        const threshold = Number(num);
        if (threshold > 1) this.fail('threshold must be between 0 and 1', this.pos + 1);
        this.pos += 1 + num.length;
        return this.eat('~') ? { threshold, value: this.value(inVia, '~') } : { threshold };
      }
    }
    return { value: this.value(inVia, '~') };
  }

  /** Whether position `i` (after spaces) ends a value: end, `,`, `)` inside via, or `extra`. */
  private endsValue(i: number, inVia: boolean, extra = ''): boolean {
    while (i < this.src.length && /\s/.test(this.src[i])) i++;
    const c = this.src[i];
    return c === undefined || c === ',' || (inVia && c === ')') || (extra !== '' && c === extra);
  }

  /** Whether a comma at `i - 1` starts another `name=` / `name~` property. */
  private startsProperty(i: number): boolean {
    while (/\s/.test(this.src[i] ?? '')) i++;
    const n = this.nameAt(i);
    if (n === null) return false;
    i += n.length;
    while (/\s/.test(this.src[i] ?? '')) i++;
    return this.src[i] === '=' || this.src[i] === '~';
  }

  private value(inVia: boolean, op: string): string {
    this.ws();
    const start = this.pos;
    if (this.src[start] === '"') {
      const quoted = this.quoted();
      if (quoted !== null && quoted !== '' && this.endsValue(this.pos, inVia)) return quoted;
      this.pos = start; // not a well-formed quoted value: the quote is part of a raw value
    }
    let depth = 0;
    let i = start;
    for (; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '(') depth++;
      else if (c === ')' && depth > 0) depth--;
      else if (c === ')' && inVia) break;
      else if (c === ',' && depth === 0 && this.startsProperty(i + 1)) break;
    }
    const raw = this.src.slice(start, i).trim();
    if (raw === '') this.fail(`expected a value after '${op}'`, start);
    if (raw.length > GRAPH_LIMITS.stringValue)
      this.fail(`value longer than ${GRAPH_LIMITS.stringValue} characters`, start);
    this.pos = start + this.src.slice(start, i).trimEnd().length;
    return raw;
  }

  private quoted(): string | null {
    let out = '';
    for (let i = this.pos + 1; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '"') {
        this.pos = i + 1;
        return out;
      }
      if (c === '\\') {
        if (i + 1 >= this.src.length) return null;
        out += this.src[++i];
      } else out += c;
    }
    return null;
  }
}

/**
 * Parse one `link_to` string. Throws 422 naming the string and the position of the
 * problem (0-based offset in UTF-16 code units, as JavaScript indexes strings), with
 * details `{field: 'link_to', value, position}` plus `where` (list index or dict key).
 */
export function parseLinkToEntry(src: string, where: Record<string, unknown> = {}): LinkToEntry {
  return new Parser(src, where).entry();
}
