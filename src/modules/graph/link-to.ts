import { unprocessable } from '../../shared/errors.ts';
import { GRAPH_LIMITS, type EdgeConstraint, type NodeConstraint } from './policy.schemas.ts';
import { edgeConstraintInput, nodeConstraintInput, parseOr422 } from './policy.inputs.ts';
import { parseLinkToEntry, type LinkSpecial } from './link-to.parser.ts';

/** The single-entry parser and its types, for callers that only need to check syntax. */
export { parseLinkToEntry, type LinkSpecial, type LinkToEntry } from './link-to.parser.ts';

/**
 * The deprecated `link_to` shorthand (spec §2.4) expanded into canonical node and edge
 * constraints. The grammar and its parser are in `link-to.parser.ts`.
 */

/** What a `link_to` value expands to. */
export interface LinkToExpansion {
  node_constraints: NodeConstraint[];
  edge_constraints: EdgeConstraint[];
  specials: LinkSpecial[];
}

/** Keys a dict-form entry may carry. */
const OPTION_KEYS = new Set(['set', 'create', 'on_miss', 'when', 'link_only']);

/**
 * Expand a `link_to` value (string, list of strings, or dict of string → options) into
 * canonical constraints and special targets. Default creation is upsert; dict options
 * `create` (`upsert`/`lookup`, legacy `auto`/`never`/`always`), `on_miss`, `set`, `when`
 * and deprecated `link_only` go through the same rules as explicit constraints.
 */
export function expandLinkTo(linkTo: unknown): LinkToExpansion {
  const entries = linkToEntries(linkTo);
  const out: LinkToExpansion = { node_constraints: [], edge_constraints: [], specials: [] };
  entries.forEach(([key, options], index) => {
    const where = Array.isArray(linkTo) ? { index } : typeof linkTo === 'object' ? { key } : {};
    const entry = parseLinkToEntry(key, where);
    if (entry.kind === 'special') {
      if (Object.keys(options).length > 0)
        throw unprocessable(`link_to "${key}" takes no options`, { field: 'link_to', value: key, ...where });
      out.specials.push(entry.special);
    } else if (entry.kind === 'node') {
      const via_relationship = entry.via.map((v) => ({
        edge_type: v.edge_type,
        target_type: v.target_type,
        target_search: v.properties.length ? { properties: v.properties } : undefined,
      }));
      const input = {
        node_type: entry.node_type,
        search: { properties: entry.properties, via_relationship },
        ...options,
      };
      out.node_constraints.push(parseOr422(nodeConstraintInput, input, `link_to[${JSON.stringify(key)}]`));
    } else {
      const { kind: _k, properties, ...edge } = entry;
      const input = { ...edge, ...(properties.length ? { search: { properties } } : {}), ...options };
      out.edge_constraints.push(parseOr422(edgeConstraintInput, input, `link_to[${JSON.stringify(key)}]`));
    }
  });
  return out;
}

/** The three accepted shapes as [string, options] pairs, with their shape errors. */
function linkToEntries(linkTo: unknown): [string, Record<string, unknown>][] {
  const fail = (message: string, extra: Record<string, unknown> = {}) =>
    unprocessable(message, { field: 'link_to', ...extra });
  let pairs: [unknown, unknown][];
  if (typeof linkTo === 'string') pairs = [[linkTo, {}]];
  else if (Array.isArray(linkTo)) pairs = linkTo.map((k) => [k, {}]);
  else if (linkTo !== null && typeof linkTo === 'object') pairs = Object.entries(linkTo);
  else throw fail('link_to must be a string, a list of strings, or an object mapping strings to options');
  if (pairs.length > GRAPH_LIMITS.linkToEntries)
    throw fail(`link_to has at most ${GRAPH_LIMITS.linkToEntries} entries`);
  return pairs.map(([key, options], index) => {
    if (typeof key !== 'string') throw fail(`link_to[${index}] must be a string`, { index });
    const opts = options ?? {};
    if (typeof opts !== 'object' || Array.isArray(opts))
      throw fail(`link_to options for "${key}" must be an object`, { key });
    const unknown = Object.keys(opts).filter((k) => !OPTION_KEYS.has(k));
    if (unknown.length)
      throw fail(
        `link_to options for "${key}" allow set, create, on_miss, when, link_only; got ${unknown.join(', ')}`,
        { key, options: unknown },
      );
    return [key, opts as Record<string, unknown>];
  });
}
