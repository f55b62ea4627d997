/**
 * A domain's catalog: what its transforms contained, counted. Pure over rows: a refresh folds
 * the buffered band values of new transforms into the stored counts (catalog.jobs.ts runs it).
 * Only the top values are kept (50 per band, 25 clusters and patterns): beyond them the counts
 * are dropped, so the catalog stays small however many transforms a domain sees.
 */
import { frequencyIndex, ROLE_FAMILIES, type Domain, type RoleFamily, type SignalField } from './bands.ts';

export const CATALOG_LIMITS = {
  /** Longer values are sentences, not categories: they are not counted. */
  valueChars: 60,
  valuesPerBand: 50,
  clusters: 25,
  patterns: 25,
  members: 20,
} as const;

/** An entity cluster or relationship pattern; `key` groups (stored, not part of the API shape). */
export interface CatalogCluster {
  label: string;
  count: number;
  members: string[];
  key?: string;
}

export interface CatalogCounts {
  total_documents: number;
  domain_distribution: Record<string, number>;
  signal_value_counts: Record<string, Record<string, number>>;
  entity_clusters: CatalogCluster[];
  relationship_patterns: CatalogCluster[];
}

export const emptyCatalog = (): CatalogCounts => ({
  total_documents: 0,
  domain_distribution: {},
  signal_value_counts: {},
  entity_clusters: [],
  relationship_patterns: [],
});

/** A stored catalog with any member missing filled in (older or hand-made rows). */
export function catalogOf(stored: Partial<CatalogCounts> | null | undefined): CatalogCounts {
  return { ...emptyCatalog(), ...(stored ?? {}) };
}

/** A value as counted: trimmed, spaces collapsed, lowercased; null when empty or too long. */
export function normaliseValue(raw: string): string | null {
  const v = raw.trim().replace(/\s+/g, ' ').toLowerCase();
  return v && v.length <= CATALOG_LIMITS.valueChars ? v : null;
}

/** A band's raw values in one transform: several for multi_value_text (split on `;` and `,`). */
export function rawValues(field: SignalField, raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  const parts = field.type === 'multi_value_text' ? raw.split(/[;,]/) : [raw];
  return parts.map((p) => p.trim().replace(/\s+/g, ' ')).filter(Boolean);
}

/** One word made singular-ish: enough for "genes"/"gene", "studies"/"study", "boxes"/"box". */
function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The grouping key of a value: lowercase, punctuation stripped, each word singular-ish. */
export function clusterKey(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map(singular)
    .join(' ');
}

/** The domain's band of a role family (its frequency says which), if any. */
export function bandOf(domain: Domain, role: RoleFamily): SignalField | undefined {
  return domain.signals.find((s) => ROLE_FAMILIES[frequencyIndex(s.frequency_hz)] === role);
}

/** Sorted by count (high first), then value; the first `limit`. */
function topCounts(counts: Map<string, number>, limit: number): Record<string, number> {
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, limit);
  return Object.fromEntries(top);
}

/** Clusters being built: per key, the total and each member's count (members in first-seen order). */
type Groups = Map<string, { count: number; members: Map<string, number>; label?: string }>;

function addToGroup(groups: Groups, key: string, member: string): void {
  const g = groups.get(key) ?? { count: 0, members: new Map<string, number>() };
  g.count += 1;
  g.members.set(member, (g.members.get(member) ?? 0) + 1);
  groups.set(key, g);
}

/** Stored clusters merged with new groups: counts add up, labels stay, members are capped. */
function mergeClusters(prev: CatalogCluster[], groups: Groups, limit: number, keyOf: (c: CatalogCluster) => string) {
  const merged: Groups = new Map();
  for (const c of prev)
    merged.set(c.key ?? keyOf(c), { count: c.count, members: new Map(c.members.map((m) => [m, 0])), label: c.label });
  for (const [key, g] of groups) {
    const m = merged.get(key) ?? { count: 0, members: new Map<string, number>() };
    m.count += g.count;
    const byCount = [...g.members].sort((a, b) => b[1] - a[1]);
    for (const [member, n] of byCount) m.members.set(member, (m.members.get(member) ?? 0) + n);
    m.label ??= byCount[0][0];
    merged.set(key, m);
  }
  return [...merged]
    .map(([key, g]) => ({
      label: g.label!,
      count: g.count,
      members: [...g.members.keys()].slice(0, CATALOG_LIMITS.members),
      key,
    }))
    .sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .slice(0, limit);
}

/**
 * Fold the band values of `entries` (new transforms, oldest first) into `prev`. `observed` is
 * how many transforms they stand for (more than `entries` when the buffer dropped some).
 */
export function foldCatalog(
  domain: Domain,
  prev: CatalogCounts,
  entries: { signals: Record<string, string> }[],
  observed = entries.length,
): CatalogCounts {
  const valueCounts = new Map<string, Map<string, number>>();
  for (const [band, counts] of Object.entries(prev.signal_value_counts))
    valueCounts.set(band, new Map(Object.entries(counts)));
  const distribution = new Map(Object.entries(prev.domain_distribution));
  const prior = bandOf(domain, 'domain_prior');
  const entityBands = [bandOf(domain, 'entity_type'), bandOf(domain, 'identifier')].filter((b) => !!b);
  const [source, relation, target] = (['source_role', 'named_relation', 'target_role'] as const).map((r) =>
    bandOf(domain, r),
  );
  const entities: Groups = new Map();
  const patterns: Groups = new Map();

  for (const { signals } of entries) {
    for (const field of domain.signals) {
      const values = new Set(
        rawValues(field, signals[field.name])
          .map(normaliseValue)
          .filter((v) => v !== null),
      );
      if (!values.size) continue;
      const counts = valueCounts.get(field.name) ?? new Map<string, number>();
      for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
      valueCounts.set(field.name, counts);
      if (field === prior) for (const v of values) distribution.set(v, (distribution.get(v) ?? 0) + 1);
    }
    for (const band of entityBands)
      for (const raw of rawValues(band, signals[band.name])) {
        const key = normaliseValue(raw) && clusterKey(raw);
        if (key) addToGroup(entities, key, raw);
      }
    const [s, r, t] = [source, relation, target].map((b) => (b ? rawValues(b, signals[b.name])[0] : undefined));
    if (s && r && t && normaliseValue(s) && normaliseValue(r) && normaliseValue(t)) {
      const key = [s, r, t].map(clusterKey).join('|');
      if (key.split('|').every(Boolean)) addToGroup(patterns, key, patternLabel(s, r, t));
    }
  }

  return {
    total_documents: prev.total_documents + Math.max(observed, entries.length),
    domain_distribution: topCounts(distribution, CATALOG_LIMITS.valuesPerBand),
    signal_value_counts: Object.fromEntries(
      [...valueCounts].map(([band, counts]) => [band, topCounts(counts, CATALOG_LIMITS.valuesPerBand)]),
    ),
    entity_clusters: mergeClusters(prev.entity_clusters, entities, CATALOG_LIMITS.clusters, (c) => clusterKey(c.label)),
    relationship_patterns: mergeClusters(prev.relationship_patterns, patterns, CATALOG_LIMITS.patterns, (c) => c.label),
  };
}

/** `<source> —<relation>→ <target>`, lowercased. */
export function patternLabel(source: string, relation: string, target: string): string {
  return `${normaliseValue(source)} —${normaliseValue(relation)}→ ${normaliseValue(target)}`;
}
