import { z } from 'zod';
import { unprocessable } from '../../shared/errors.ts';
import {
  DEFAULT_THRESHOLD,
  GRAPH_LIMITS,
  boundedWhen,
  edgeConstraint,
  edgeDirection,
  manualNode,
  nodeConstraint,
  onMissPolicy,
  propertyName,
  relationship,
  scalarValue,
  searchMode,
  setValue,
  typeName,
  type PropertyMatch,
  type SearchConfig,
  type SetValue,
} from './policy.schemas.ts';

/**
 * Accepted input forms of constraints, nodes and relationships, each transformed into
 * the canonical shape of `policy.schemas.ts` and then validated against it. Aliases and
 * deprecated spellings are mapped here once; conflicting spellings are zod issues that
 * `parseOr422` turns into one 422 naming the fields.
 */

type Obj = Record<string, unknown>;

/** `T` with members that may be undefined made optional instead. */
export type Compact<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drop `undefined` members so canonical objects compare (and serialise) exactly. */
export function compact<T extends Obj>(o: T): Compact<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Compact<T>;
}

/** Parse with `schema` or throw a 422 whose details list every issue with its field path under `field`. */
export function parseOr422<S extends z.ZodType>(schema: S, value: unknown, field: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({
    field: [field, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  throw unprocessable(`Invalid ${field}: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, {
    field,
    issues,
  });
}

/**
 * `create` spellings. `auto` and `never` are the contract's old names for upsert and
 * lookup; spec §2.4 also lists `always`, which has no "duplicate even when found" meaning
 * in the canonical model, so it is the creating policy, upsert.
 */
export const CREATE_ALIASES = {
  upsert: 'upsert',
  auto: 'upsert',
  always: 'upsert',
  lookup: 'lookup',
  never: 'lookup',
} as const;
const createInput = z.enum(
  Object.keys(CREATE_ALIASES) as [keyof typeof CREATE_ALIASES, ...(keyof typeof CREATE_ALIASES)[]],
);

/** A bare string in `search.properties` means an exact match on that property (client contract). */
const propertyInput = z.union([
  propertyName.transform((name) => ({ name, mode: 'exact' as const })),
  z.object({
    name: propertyName,
    mode: searchMode.nullish(),
    threshold: z.number().min(0).max(1).nullish(),
    value: scalarValue.nullish(),
  }),
]);

type PropertyIn = z.output<typeof propertyInput>;

/**
 * Fill mode and threshold: the property's own, else the search-level default, else semantic
 * at its default threshold.
 */
function canonicalProperty(
  p: PropertyIn,
  defaults: { mode?: PropertyMatch['mode'] | null; threshold?: number | null },
): PropertyMatch {
  const mode = p.mode ?? defaults.mode ?? 'semantic';
  const threshold =
    mode === 'exact'
      ? undefined
      : (('threshold' in p ? p.threshold : undefined) ?? defaults.threshold ?? DEFAULT_THRESHOLD[mode]);
  return compact({ name: p.name, mode, threshold, value: ('value' in p ? p.value : undefined) ?? undefined });
}

const targetSearchInput = z.object({
  mode: searchMode.nullish(),
  threshold: z.number().min(0).max(1).nullish(),
  properties: z.array(propertyInput).min(1).max(GRAPH_LIMITS.searchProperties),
});

const viaInput = z.object({
  edge_type: typeName,
  target_type: typeName,
  direction: edgeDirection.nullish(),
  target_search: targetSearchInput.nullish(),
});

/** `search` (client SearchConfigInput): search-level mode/threshold are folded into each property. */
export const searchInput = z
  .object({
    mode: searchMode.nullish(),
    threshold: z.number().min(0).max(1).nullish(),
    properties: z.array(propertyInput).max(GRAPH_LIMITS.searchProperties).nullish(),
    via_relationship: z.array(viaInput).max(GRAPH_LIMITS.viaRelationships).nullish(),
  })
  .transform((s): SearchConfig => {
    const via = (s.via_relationship ?? []).map((v) =>
      compact({
        edge_type: v.edge_type,
        target_type: v.target_type,
        direction: v.direction ?? 'outgoing',
        target_search: v.target_search
          ? { properties: v.target_search.properties.map((p) => canonicalProperty(p, v.target_search!)) }
          : undefined,
      }),
    );
    return compact({
      properties: (s.properties ?? []).map((p) => canonicalProperty(p, s)),
      via_relationship: via.length ? via : undefined,
    });
  })
  // `search: {}` (or only defaults) selects nothing: the same as no search, not an error.
  .transform((s) => (s.properties.length || s.via_relationship ? s : undefined));

type AutoSetValue = Extract<SetValue, { mode: 'auto' }>;

/**
 * One `set` entry: `{mode: 'auto', ...}` is model extraction; `{mode: 'exact', value}`
 * or `{value}` (spec §2.4 "object with mode and value") is a fixed value; anything else,
 * including an object without `mode`, is itself the fixed value.
 */
function canonicalSetValue(v: unknown, ctx: z.RefinementCtx, key: string): SetValue {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Obj;
    if ('mode' in o) {
      if (o.mode === 'auto')
        // Shapes only: the pipe into `setValue` below checks the values.
        return compact({
          mode: 'auto' as const,
          prompt: (o.prompt ?? undefined) as string | undefined,
          text_mode: (o.text_mode ?? undefined) as AutoSetValue['text_mode'],
        });
      if (o.mode === 'exact' && 'value' in o) return { mode: 'exact', value: o.value };
      ctx.issues.push({
        code: 'custom',
        path: [key, 'mode'],
        input: o.mode,
        message: "set mode must be 'auto', or 'exact' with a value",
      });
      return { mode: 'exact', value: null };
    }
    if (Object.keys(o).length === 1 && 'value' in o) return { mode: 'exact', value: o.value };
  }
  return { mode: 'exact', value: v };
}

/** `set` as clients send it, every entry made explicit (`{mode: 'exact', value}` or `{mode: 'auto', ...}`). */
export const setInput = z
  .record(propertyName, z.unknown())
  .transform((m, ctx) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, canonicalSetValue(v, ctx, k)])))
  .pipe(z.record(z.string(), setValue));

/** Deeper than the bound means refuse before recursive validation: a 10 000-deep body must not blow the stack. */
function rawDepth(v: unknown, limit: number): number {
  if (limit < 0 || v === null || typeof v !== 'object') return 0;
  let deepest = 0;
  for (const c of Array.isArray(v) ? v : Object.values(v as Obj)) deepest = Math.max(deepest, rawDepth(c, limit - 1));
  return (Array.isArray(v) ? 0 : 1) + deepest;
}

/** `when`: null and `{}` mean "always" (absent). */
export const whenInput = z
  .unknown()
  .refine((v) => rawDepth(v, GRAPH_LIMITS.whenDepth + 1) <= GRAPH_LIMITS.whenDepth, {
    message: `conditions nest at most ${GRAPH_LIMITS.whenDepth} deep`,
  })
  .transform((v) => (v === null || (typeof v === 'object' && Object.keys(v as Obj).length === 0) ? undefined : v))
  .pipe(boundedWhen.optional());

const commonInput = {
  create: createInput.nullish(),
  on_miss: onMissPolicy.nullish(),
  link_only: z.boolean().nullish().describe('Deprecated: create lookup'),
  search: searchInput.nullish(),
  set: setInput.nullish(),
  when: whenInput.optional(),
};

type CommonIn = {
  create?: keyof typeof CREATE_ALIASES | null;
  on_miss?: 'create' | 'ignore' | 'error' | null;
  link_only?: boolean | null;
};

/**
 * Resolve create/on_miss into one consistent pair. The contract says an explicit
 * `on_miss` overrides `create`; deprecated `link_only: true` means lookup and conflicts
 * with an explicit creating `create`.
 */
function resolveCreation(c: CommonIn, ctx: z.RefinementCtx) {
  let create: 'upsert' | 'lookup' | undefined = c.create ? CREATE_ALIASES[c.create] : undefined;
  if (c.link_only) {
    if (create === 'upsert') {
      ctx.issues.push({
        code: 'custom',
        path: ['link_only'],
        input: c.link_only,
        message: `create '${c.create}' conflicts with deprecated link_only: true; send only create`,
      });
    }
    create = 'lookup';
  }
  if (c.on_miss)
    return { create: c.on_miss === 'create' ? ('upsert' as const) : ('lookup' as const), on_miss: c.on_miss };
  create ??= 'upsert';
  return { create, on_miss: create === 'upsert' ? ('create' as const) : ('ignore' as const) };
}

/** A node constraint as clients send it (NodeConstraintInput), canonicalised. */
export const nodeConstraintInput = z
  .object({ node_type: typeName, ...commonInput })
  .transform((c, ctx) =>
    compact({
      node_type: c.node_type,
      search: c.search ?? undefined,
      set: c.set ?? undefined,
      ...resolveCreation(c, ctx),
      when: c.when,
    }),
  )
  .pipe(nodeConstraint);

/** An edge constraint as clients send it (EdgeConstraintInput), canonicalised; direction defaults to outgoing. */
export const edgeConstraintInput = z
  .object({
    edge_type: typeName,
    direction: edgeDirection.nullish(),
    source_type: typeName.nullish(),
    target_type: typeName.nullish(),
    ...commonInput,
  })
  .transform((c, ctx) =>
    compact({
      edge_type: c.edge_type,
      direction: c.direction ?? 'outgoing',
      source_type: c.source_type ?? undefined,
      target_type: c.target_type ?? undefined,
      search: c.search ?? undefined,
      set: c.set ?? undefined,
      ...resolveCreation(c, ctx),
      when: c.when,
    }),
  )
  .pipe(edgeConstraint);

/** Take `current` or its deprecated alias; both given and different is an issue naming both. */
function alias<T>(o: Obj, current: string, old: string, ctx: z.RefinementCtx): T | undefined {
  const a = o[current] ?? undefined;
  const b = o[old] ?? undefined;
  if (a !== undefined && b !== undefined && a !== b) {
    ctx.issues.push({
      code: 'custom',
      path: [old],
      input: b,
      message: `${current} and deprecated ${old} differ; send only ${current}`,
    });
  }
  return (a ?? b) as T | undefined;
}

/** Checked after aliases are resolved, by the canonical schema. */
const anything = z.unknown().optional();

/** A manual node (NodeSpec); the superseded `label` is accepted for `type`. */
export const manualNodeInput = z
  .object({ id: anything, type: anything, label: anything, properties: anything })
  .transform((n, ctx) => ({ id: n.id, type: alias(n, 'type', 'label', ctx), properties: n.properties ?? {} }))
  .pipe(manualNode);

/** A relationship (RelationshipSpec); superseded source_node_id / target_node_id / relationship_type accepted. */
export const relationshipInput = z
  .object({
    source: anything,
    target: anything,
    type: anything,
    source_node_id: anything,
    target_node_id: anything,
    relationship_type: anything,
    properties: anything,
  })
  .transform((r, ctx) =>
    compact({
      source: alias(r, 'source', 'source_node_id', ctx),
      target: alias(r, 'target', 'target_node_id', ctx),
      type: alias(r, 'type', 'relationship_type', ctx),
      properties: (r.properties ?? undefined) as Obj | undefined,
    }),
  )
  .pipe(relationship);
