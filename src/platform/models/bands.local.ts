/**
 * The local band extractor (id 'bands-local-2'): no model call, no network. Each band is filled
 * by the rule of its role family (bands.local.rules.ts reads prose and code), with the
 * entity extractor's nodes and relationships for the entity and relation roles, and then
 * shaped by the band's type: an enum band takes the allowed value whose embedding is closest
 * to the text (an exact mention wins first), numeric/date/boolean bands take the first value
 * of that kind. Deterministic for a given text, domain and embedder.
 */
import { clipBand, type BandExtractor, type BandInput, type BandSpec, type BandValues } from './bands.ts';
import {
  codeParts,
  cued,
  CUES,
  identifiers,
  quantities,
  sentences,
  splitIdentifier,
  unique,
} from './bands.local.rules.ts';
import { looksLikeCode } from '../text-code.ts';
import { dot } from './embedder.ts';
import type { Extraction } from './extractor.ts';

/**
 * Recorded with every artifact. 2: code is told from prose by platform/text-code.ts (whole
 * declaration shapes), not by keywords anywhere in a line ("From Darwin …" was code to version 1).
 */
export const LOCAL_BANDS_ID = 'bands-local-2';

export interface LocalBandsDeps {
  /** Unit vectors for texts (the transform's signal embedder), used to choose enum values. */
  embed(texts: string[]): Promise<number[][]>;
  /** The entity extractor's reading of prose (offline). */
  entities(text: string, createdAt?: Date): Promise<Extraction>;
}

/** What the rules read from one text, shared by all its bands. */
interface Reading {
  text: string;
  code: boolean;
  byRole: Record<string, string[]>;
  dates: string[];
}

function readProse(text: string, ex: Extraction): Reading['byRole'] {
  const sents = sentences(text);
  const name = new Map(ex.nodes.map((n) => [n.key, n.name]));
  const rels = ex.relationships.filter((r) => r.type !== 'MENTIONED_WITH');
  const first = text.split('\n')[0].trim();
  const title = first.length > 0 && first.length < 200 && text.includes('\n') ? first : (sents[0] ?? '');
  const topics = ex.nodes.filter((n) => n.type === 'Topic' || n.type === 'Event').map((n) => n.name);
  return {
    domain_prior: topics.slice(0, 3),
    entity_type: unique(ex.nodes.filter((n) => n.type !== 'Date').map((n) => `${n.type}: ${n.name}`)).slice(0, 4),
    relation_structure: rels
      .slice(0, 3)
      .map((r) => `${name.get(r.source)} ${r.type.toLowerCase().replace(/_/g, ' ')} ${name.get(r.target)}`),
    attribute_focus: topics.slice(0, 5),
    context_frame: [
      ...ex.nodes.filter((n) => n.type === 'Place' || n.type === 'Date').map((n) => n.name),
      ...cued(sents, CUES.context, 1),
    ].slice(0, 3),
    main_content: [title],
    evidence_support: cued(sents.slice(1), CUES.evidence, 2),
    source_role: unique(rels.map((r) => name.get(r.source) ?? '')).slice(0, 2),
    target_role: unique(rels.map((r) => name.get(r.target) ?? '')).slice(0, 2),
    named_relation: unique(rels.map((r) => r.type.toLowerCase().replace(/_/g, ' '))).slice(0, 3),
    identifier: identifiers(text).slice(0, 8),
    local_detail: quantities(text).slice(0, 6),
    rationale: cued(sents, CUES.rationale, 2),
    label_outcome: cued(sents.slice(1), CUES.outcome, 1)
      .concat(sents.length > 1 ? [] : sents)
      .slice(0, 1),
  };
}

function readCode(text: string): Reading['byRole'] {
  const c = codeParts(text);
  const nameWords = splitIdentifier(c.name);
  const summary = c.docstring.split(/(?<=\.)\s/)[0] || nameWords;
  return {
    domain_prior: [c.language],
    entity_type: [nameWords ? `function ${nameWords}` : 'code'],
    relation_structure: [
      `${nameWords}(${c.params.map(splitIdentifier).join(', ')})${c.returns[0] ? ` returns ${c.returns[0]}` : ''}`,
    ],
    attribute_focus: c.params.map(splitIdentifier),
    context_frame: c.imports.length ? c.imports : [c.language],
    main_content: [summary],
    evidence_support: c.calls.slice(0, 6).map(splitIdentifier),
    source_role: c.params.map(splitIdentifier).slice(0, 4),
    target_role: c.returns.slice(0, 2).map(splitIdentifier),
    named_relation: c.calls.slice(0, 4).map(splitIdentifier),
    identifier: unique([c.name, ...c.calls.slice(0, 6)].filter(Boolean).map(splitIdentifier)),
    local_detail: c.literals.slice(0, 6),
    rationale: c.comments.slice(0, 2),
    label_outcome: c.returns.slice(0, 1),
  };
}

async function read(input: BandInput, deps: LocalBandsDeps): Promise<Reading> {
  const code = looksLikeCode(input.text);
  const ex = code ? { nodes: [], relationships: [] } : await deps.entities(input.text, input.createdAt);
  const dates = ex.nodes.filter((n) => n.type === 'Date').map((n) => n.name);
  return { text: input.text, code, byRole: code ? readCode(input.text) : readProse(input.text, ex), dates };
}

/** The value of one non-enum band from the reading. */
function shape(band: BandSpec, r: Reading): string {
  const values = (r.byRole[band.role] ?? []).map((v) => v.trim()).filter(Boolean);
  switch (band.type) {
    case 'numeric':
      return /-?\d+(?:\.\d+)?/.exec(values.join(' ') || quantities(r.text).join(' '))?.[0] ?? '';
    case 'date':
      return r.dates[0] ?? '';
    case 'boolean':
      return describedIn(band, r.text) ? 'true' : 'false';
    case 'multi_value_text':
      return clipBand(values.join('; '));
    default:
      return clipBand(values.join(' '));
  }
}

/** Boolean bands: true when a content word of the instruction occurs in the text. */
function describedIn(band: BandSpec, text: string): boolean {
  const words = band.description.toLowerCase().match(/[a-z]{5,}/g) ?? [];
  const lower = text.toLowerCase();
  return words.some((w) => lower.includes(w.slice(0, 6)));
}

export function createLocalBandExtractor(deps: LocalBandsDeps): BandExtractor {
  const valueVectors = new Map<string, number[]>();

  async function vectorsOf(values: string[]): Promise<number[][]> {
    const missing = values.filter((v) => !valueVectors.has(v));
    if (missing.length) (await deps.embed(missing)).forEach((vec, i) => valueVectors.set(missing[i], vec));
    return values.map((v) => valueVectors.get(v)!);
  }

  /** Enum: a value the text names (longest first), else the allowed value nearest the text's embedding. */
  async function choose(values: string[], text: string, textVector: () => Promise<number[]>): Promise<string> {
    const lower = text.toLowerCase();
    const named = [...values]
      .sort((a, b) => b.length - a.length)
      .find((v) => {
        const words = v.toLowerCase().replace(/[_-]/g, ' ');
        return new RegExp(`\\b${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(lower);
      });
    if (named) return named;
    const [t, vs] = [await textVector(), await vectorsOf(values.map((v) => v.replace(/_/g, ' ')))];
    let best = 0;
    vs.forEach((v, i) => (dot(v, t) > dot(vs[best], t) ? (best = i) : 0));
    return values[best];
  }

  return {
    id: LOCAL_BANDS_ID,
    async extract(inputs) {
      const out: BandValues[] = [];
      for (const input of inputs) {
        const r = await read(input, deps);
        let vector: Promise<number[]> | undefined;
        const textVector = () => (vector ??= deps.embed([input.text.slice(0, 2000)]).then(([v]) => v));
        const values: BandValues = {};
        for (const band of input.bands) {
          values[band.name] =
            band.type === 'enum' && band.allowed_values?.length
              ? await choose(band.allowed_values, input.text, textVector)
              : shape(band, r);
        }
        out.push(values);
      }
      return out;
    },
  };
}
