import {
  upperSnake,
  type ExtractedNode,
  type ExtractedRelationship,
  type Extraction,
  type GraphSchema,
  type PropertyValue,
  type SchemaProperty,
} from './extractor.ts';

// Keeping an extraction to a user graph schema (shared by the local and the LLM adapters).

/** Synonyms of the default types, so a user schema saying 'Company' still receives organisations. */
const NODE_ALIASES: Record<string, string[]> = {
  person: ['people', 'contact', 'user', 'individual', 'customer', 'employee', 'member', 'human'],
  organization: ['organisation', 'company', 'org', 'employer', 'business', 'institution', 'team'],
  place: ['location', 'city', 'country', 'address', 'venue', 'region'],
  date: ['time', 'day', 'datetime', 'timestamp'],
  product: ['item', 'tool', 'software', 'device', 'app', 'application'],
  topic: ['concept', 'subject', 'interest', 'keyword', 'theme', 'skill'],
  event: ['meeting', 'activity', 'occasion', 'happening'],
};
const RELATIONSHIP_ALIASES: Record<string, string[]> = {
  WORKS_AT: ['WORKS_FOR', 'EMPLOYED_BY', 'EMPLOYED_AT'],
  LIVES_IN: ['RESIDES_IN', 'LOCATED_IN', 'BASED_IN'],
  MENTIONED_WITH: ['RELATED_TO', 'RELATES_TO', 'ASSOCIATED_WITH', 'CO_OCCURS_WITH'],
  MARRIED_TO: ['SPOUSE_OF'],
  FAMILY: ['RELATIVE_OF', 'FAMILY_OF'],
  FRIEND: ['FRIEND_OF', 'FRIENDS_WITH'],
  VISITED: ['TRAVELED_TO', 'WENT_TO'],
};

/** The schema type a default (or LLM-produced) type maps to, or undefined when the schema has none. */
function matchType(
  type: string,
  names: string[],
  aliases: Record<string, string[]>,
  norm: (s: string) => string,
): string | undefined {
  const wanted = norm(type);
  const exact = names.find((n) => norm(n) === wanted);
  if (exact) return exact;
  for (const [base, syns] of Object.entries(aliases)) {
    const group = [norm(base), ...syns.map(norm)];
    if (group.includes(wanted)) return names.find((n) => group.includes(norm(n)));
  }
  return undefined;
}

/** A value coerced to the declared property type, or undefined when it cannot be. */
function coerce(value: PropertyValue, prop: SchemaProperty): PropertyValue | undefined {
  let v: PropertyValue | undefined = value;
  if (prop.type === 'number' || prop.type === 'integer') {
    const n = typeof value === 'number' ? value : Number(value);
    v = Number.isFinite(n) && (prop.type === 'number' || Number.isInteger(n)) ? n : undefined;
  } else if (prop.type === 'boolean') {
    v = typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : undefined;
  } else v = String(value);
  if (v !== undefined && prop.enum && !prop.enum.includes(v)) return undefined;
  return v;
}

/**
 * Restrict an extraction to a user schema: node and relationship types are mapped to the
 * schema's (exact name, case-insensitive, or a known synonym) or dropped; node properties are
 * limited to declared ones and coerced (a `name` property is filled from the node name); nodes
 * missing a required property, and relationships outside the declared source/target types or
 * touching a dropped node, are dropped. Without a schema the extraction is returned unchanged.
 */
export function restrictToSchema(extraction: Extraction, schema: GraphSchema | undefined): Extraction {
  if (!schema) return extraction;
  const nodeNames = schema.node_types.map((t) => t.name);
  const lower = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const nodes: ExtractedNode[] = [];
  const typeOf = new Map<string, string>();
  for (const node of extraction.nodes) {
    const type = matchType(node.type, nodeNames, NODE_ALIASES, lower);
    const decl = schema.node_types.find((t) => t.name === type);
    if (!type || !decl) continue;
    const properties: Record<string, PropertyValue> = {};
    const given: Record<string, PropertyValue> = { name: node.name, ...node.properties };
    let complete = true;
    for (const prop of decl.properties) {
      const v = given[prop.name] === undefined ? undefined : coerce(given[prop.name], prop);
      if (v !== undefined) properties[prop.name] = v;
      else if (prop.required) complete = false;
    }
    if (!complete) continue;
    nodes.push({ ...node, type, properties });
    typeOf.set(node.key, type);
  }
  const relNames = schema.relationship_types.map((t) => t.name);
  const relationships: ExtractedRelationship[] = [];
  for (const rel of extraction.relationships) {
    const type = matchType(rel.type, relNames, RELATIONSHIP_ALIASES, upperSnake);
    const decl = schema.relationship_types.find((t) => t.name === type);
    const source = typeOf.get(rel.source);
    const target = typeOf.get(rel.target);
    if (!type || !decl || !source || !target) continue;
    if (decl.source_types?.length && !decl.source_types.includes(source)) continue;
    if (decl.target_types?.length && !decl.target_types.includes(target)) continue;
    relationships.push({ ...rel, type });
  }
  return { nodes, relationships };
}
