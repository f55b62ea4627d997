/**
 * The nodes of one extraction: spans become nodes, deduplicated case-insensitively, with the
 * speaker as the node behind 'I'/'my' and a lone surname or first name merged into the one
 * full name it can denote. Edges are remapped through those merges at the end.
 */
import { canonicalName, type ExtractedNode, type ExtractedRelationship, type Extraction } from './extractor.ts';
import type { Span } from './extractor.local.tokens.ts';

const NAMED_TYPES = new Set(['Person', 'Organization', 'Place', 'Product']);
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

/** Nodes of one extraction, deduplicated case-insensitively; a named entity wins over a same-named topic. */
export class NodeRegistry {
  private readonly nodes = new Map<string, ExtractedNode>();
  private readonly byName = new Map<string, string>();
  readonly speakerKey: string | null = null;

  /** The speaker (if known) is node `speaker`, found by full or first name too. */
  constructor(speaker: string | undefined) {
    if (!speaker) return;
    const name = canonicalName(speaker);
    this.speakerKey = 'speaker';
    this.nodes.set('speaker', { key: 'speaker', type: 'Person', name, properties: {}, mentions: [speaker.trim()] });
    this.byName.set(`named:${name.toLowerCase()}`, 'speaker');
    this.byName.set(`named:${name.toLowerCase().split(' ')[0]}`, 'speaker');
  }

  /** The key of the node for span `s`, made on first sight; later mentions add surface forms and properties. */
  add(s: Span): string {
    const lower = s.name.toLowerCase();
    const lookup = NAMED_TYPES.has(s.type) ? `named:${lower}` : `${s.type}:${lower}`;
    const key =
      this.byName.get(lookup) ??
      (NAMED_TYPES.has(s.type) || s.type === 'Date' ? undefined : this.byName.get(`named:${lower}`));
    if (key) {
      const node = this.nodes.get(key)!;
      if (!node.mentions.includes(s.surface)) node.mentions.push(s.surface);
      node.properties = { ...s.props, ...node.properties };
      return key;
    }
    let fresh = `${s.type.toLowerCase()}:${slug(s.name) || 'x'}`;
    for (let n = 2; this.nodes.has(fresh); n++) fresh = `${s.type.toLowerCase()}:${slug(s.name)}-${n}`;
    this.nodes.set(fresh, {
      key: fresh,
      type: s.type,
      name: s.name,
      properties: { ...s.props },
      mentions: [s.surface],
    });
    this.byName.set(lookup, fresh);
    return fresh;
  }

  /** Merge 'Smith' / 'Dr. Smith' into the one 'John Smith' they can name, then remap and dedupe edges. */
  finish(rels: ExtractedRelationship[]): Extraction {
    const alias = new Map<string, string>();
    const people = [...this.nodes.values()].filter((n) => n.type === 'Person');
    for (const short of people.filter((n) => !n.name.includes(' ') && n.key !== 'speaker')) {
      const word = short.name.toLowerCase();
      const full = people.filter(
        (n) =>
          n.name.includes(' ') &&
          [n.name.split(' ')[0], n.name.split(' ').at(-1)].some((w) => w!.toLowerCase() === word),
      );
      if (full.length !== 1) continue;
      alias.set(short.key, full[0].key);
      full[0].mentions.push(...short.mentions.filter((m) => !full[0].mentions.includes(m)));
      full[0].properties = { ...short.properties, ...full[0].properties };
      this.nodes.delete(short.key);
    }
    const seen = new Set<string>();
    const relationships: ExtractedRelationship[] = [];
    for (const r of rels) {
      const source = alias.get(r.source) ?? r.source;
      const target = alias.get(r.target) ?? r.target;
      const id = `${source}|${r.type}|${target}`;
      if (source === target || seen.has(id)) continue;
      seen.add(id);
      relationships.push({ ...r, source, target });
    }
    return { nodes: [...this.nodes.values()], relationships };
  }
}
