/**
 * The cost limit: before anything executes, the operation's cost is estimated from the
 * document, the schema and the variables, and an operation above MAX_COST is refused without
 * running a resolver. The depth limit (mercurius `queryDepth`) bounds nesting; this bounds
 * width: aliases, repeated fields and the page sizes a query asks for.
 *
 * Cost of a field = its base cost + (the most items it can return) × (the cost of its
 * selections). A field costs 1 unless BASE_COST says more (the ones that read the store, embed
 * or write); a field whose size an argument chooses (`first`, `maxMemories` …) multiplies its
 * selections by that argument, or by its parent's (a search's `memories` by `maxMemories`);
 * other lists (topics, introspection's) count once.
 */
import {
  getArgumentValues,
  getNamedType,
  getOperationAST,
  GraphQLError,
  isCompositeType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

/** The most an operation may cost (see docs/graphql.md for what typical queries cost). */
export const MAX_COST = 5000;

/** Fields that cost more than 1: they read the store, run a search or write. */
const BASE_COST: Record<string, number> = {
  'Query.search': 1000,
  'Mutation.addMemory': 500,
  'Mutation.updateMemory': 500,
  'Mutation.deleteMemory': 50,
  'Query.graph': 50,
  'Query.memory': 10,
  'Query.memories': 10,
  'Query.users': 10,
  'Query.user': 10,
  'Query.namespaces': 10,
  'Query.namespace': 10,
  'User.memories': 10,
  'AddedMemory.memory': 10,
  'Query.__schema': 500,
  'Query.__type': 10,
};

type ArgValues = Record<string, unknown>;
/** A size argument as a multiplier: at least 1 (an empty page still costs its fields once), at most a million. */
const num = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(1e6, Math.max(1, Math.floor(v))) : 1;

/** How many items a field returns at most, from its own arguments or its parent field's. */
const SIZE: Record<string, (own: ArgValues, parent: ArgValues) => number> = {
  'Query.memories': (a) => num(a.first),
  'User.memories': (a) => num(a.first),
  'Query.users': (a) => num(a.first),
  'Query.namespaces': (a) => num(a.first),
  'SearchResult.memories': (_, p) => num(p.maxMemories),
  'SearchResult.nodes': (_, p) => num(p.maxNodes),
  'Graph.nodes': (_, p) => num(p.maxNodes),
  'Graph.relationships': (_, p) => num(p.maxRelationships),
};

/** The refusal: a request error (extensions.code 400), sent before execution. */
export class CostLimitError extends GraphQLError {
  constructor(cost: number) {
    super(
      `Query cost ${cost > MAX_COST * 10 ? `over ${MAX_COST * 10}` : cost} exceeds the limit of ${MAX_COST}: ` +
        'ask for fewer items (first, maxMemories …) or fewer fields',
      { extensions: { code: 400, cost, limit: MAX_COST } },
    );
  }
}

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Fields visited so far: each costs at least 1, so the walk stops past MAX_COST visits. */
  visits: number;
}

function fieldDef(w: Walk, parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === '__typename') return TypeNameMetaFieldDef;
  if (parent === w.schema.getQueryType()) {
    if (name === '__schema') return SchemaMetaFieldDef;
    if (name === '__type') return TypeMetaFieldDef;
  }
  return 'getFields' in parent ? parent.getFields()[name] : undefined;
}

function selectionCost(w: Walk, parent: GraphQLCompositeType, set: SelectionSetNode, parentArgs: ArgValues): number {
  let total = 0;
  for (const sel of set.selections) {
    if (w.visits > MAX_COST) return total + 1;
    if (sel.kind === Kind.FIELD) {
      w.visits++;
      const def = fieldDef(w, parent, sel.name.value);
      if (!def) continue; // validation refused it already
      const key = `${parent.name}.${sel.name.value}`;
      const args = def.args.length ? (getArgumentValues(def, sel, w.variables) as ArgValues) : {};
      const type = getNamedType(def.type);
      let inner = 0;
      if (sel.selectionSet && isCompositeType(type)) {
        inner = (SIZE[key]?.(args, parentArgs) ?? 1) * selectionCost(w, type, sel.selectionSet, args);
      }
      total += (BASE_COST[key] ?? 1) + inner;
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const on = sel.typeCondition ? w.schema.getType(sel.typeCondition.name.value) : parent;
      if (on && isCompositeType(on)) total += selectionCost(w, on, sel.selectionSet, parentArgs);
    } else {
      const fragment = w.fragments.get(sel.name.value);
      const on = fragment && w.schema.getType(fragment.typeCondition.name.value);
      if (fragment && on && isCompositeType(on)) total += selectionCost(w, on, fragment.selectionSet, parentArgs);
    }
  }
  return total;
}

/**
 * The cost of the operation `operationName` names (or the document's only one); 0 when there
 * is none to run (execution reports that). Runs on a validated document, so fragments do not
 * cycle and the depth is bounded; the visit count bounds its work.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string,
): number {
  const operation = getOperationAST(document, operationName);
  const root = operation?.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!operation || !root || operation.operation === 'subscription') return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return selectionCost({ schema, fragments, variables: variables ?? {}, visits: 0 }, root, operation.selectionSet, {});
}

/** Throws CostLimitError when the operation costs more than MAX_COST. */
export function checkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string,
): void {
  const cost = operationCost(schema, document, variables, operationName);
  if (cost > MAX_COST) throw new CostLimitError(cost);
}
