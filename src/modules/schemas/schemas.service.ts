import type { Db, Queryable } from '../../platform/db/index.ts';
import { requireApiKey, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, forbidden, notFound } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { iso } from '../../shared/time.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import type {
  CreateSchemaBody,
  ListSchemasQuery,
  SchemaScope,
  UpdateSchemaBody,
  UserGraphSchema,
} from './schemas.schemas.ts';
import {
  getSchemaRow,
  insertSchemaRow,
  listSchemaRows,
  softDeleteSchemaRow,
  updateSchemaRow,
  type SchemaFields,
  type SchemaReader,
  type SchemaRow,
} from './schemas.store.ts';
import { definitionProblems, schemaProblemsError, type GraphSchemaDefinition } from './validate.ts';

/** A 422 naming one field, in the same `details.issues` shape as request validation. */
function fieldError(field: string, message: string): AppError {
  return new AppError(422, `${field}: ${message}`, { issues: [{ location: 'body', field, message }] });
}

/** The id in a plain id or a Parse-style pointer (`{objectId}`), as the client may send. */
function pointerId(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.objectId === 'string') return o.objectId;
    if (typeof o.id === 'string') return o.id;
  }
  return undefined;
}

const readerOf = (actor: Actor): SchemaReader => ({
  organizationId: actor.organizationId,
  namespaceId: actor.namespaceId,
  userId: actor.userId || null,
});

/** Every type gets `name` (its key) and `label` (default: the name), so readers need no fallbacks. */
function withNames<T extends { name?: string; label?: string }>(
  types: Record<string, T>,
): Record<string, T & { name: string; label: string }> {
  return Object.fromEntries(Object.entries(types).map(([key, t]) => [key, { ...t, name: key, label: t.label ?? key }]));
}

/** "1.2.3" → "1.2.4"; other version strings are kept as they are. */
export function bumpPatch(version: string): string {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  return m ? `${m[1]}.${m[2]}.${Number(m[3]) + 1}` : version;
}

/** UserGraphSchema (client contract) from a row, with the deprecated pointer aliases filled. */
export function toSchemaItem(r: SchemaRow): UserGraphSchema {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    version: r.version,
    status: r.status,
    scope: r.scope,
    node_types: r.node_types,
    relationship_types: r.relationship_types,
    memory_policy: r.memory_policy,
    namespace_id: r.namespace_id,
    namespace: r.namespace_id,
    organization_id: r.organization_id,
    organization: r.organization_id,
    user_id: r.user_id,
    workspace_id: r.workspace_id,
    read_access: r.read_access ?? [],
    write_access: r.write_access ?? [],
    usage_count: Number(r.usage_count),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at) ?? null,
    last_used_at: iso(r.last_used_at) ?? null,
  };
}

function checkDefinition(def: GraphSchemaDefinition): void {
  const problems = definitionProblems(def);
  if (problems.length) throw schemaProblemsError('Invalid schema definition', problems);
}

/** Tenancy comes from the credential; a body naming another organization is refused. */
function checkOrganization(actor: Actor, body: UpdateSchemaBody): void {
  const named = body.organization_id ?? pointerId(body.organization);
  if (named && named !== actor.organizationId)
    throw fieldError('organization_id', 'is taken from the credential and must not name another organization');
}

/**
 * Schemas other than `personal` are shared by everyone in their organization or namespace:
 * administering them is the application's, so an end user's own token (session or Bearer
 * alone) gets 403 and may keep only personal schemas. Reading stays open to it.
 */
function requireSchemaAdmin(actor: Actor, scope: SchemaScope): void {
  if (scope !== 'personal')
    requireApiKey(actor, `create, change or delete "${scope}" schemas (an end user's own are scope "personal")`);
}

/**
 * Where a schema lives, from the body (and the stored row on update). Defaults: scope
 * `namespace` when a namespace is given or the key is a namespace key, else `organization`.
 * `organization`/`workspace` schemas have no namespace and need an organization key;
 * `namespace` needs a namespace; `personal` needs a user (the creator). Only `personal` is
 * open to an end user's own token.
 */
async function placement(
  db: Queryable,
  ns: Pick<NamespaceAccess, 'resolveWriteNamespace'>,
  actor: Actor,
  body: UpdateSchemaBody,
  current?: SchemaRow,
) {
  const named = body.namespace_id ?? pointerId(body.namespace);
  if (body.namespace_id && body.namespace !== undefined && pointerId(body.namespace) !== body.namespace_id) {
    throw fieldError('namespace', 'names a different namespace than namespace_id');
  }
  const scope: SchemaScope =
    body.scope ?? current?.scope ?? (named || actor.namespaceId ? 'namespace' : 'organization');
  requireSchemaAdmin(actor, scope);
  const orgWide = scope === 'organization' || scope === 'workspace';
  if (orgWide && actor.namespaceId) {
    throw forbidden(
      `A namespace API key cannot make "${scope}" schemas; use scope "namespace" or an organization key`,
      { namespace_id: actor.namespaceId },
    );
  }
  if (orgWide && named)
    throw fieldError('scope', `"${scope}" schemas are organization-wide and cannot belong to a namespace`);
  let namespaceId: string | null = null;
  if (!orgWide)
    namespaceId =
      named !== undefined || !current ? await ns.resolveWriteNamespace(db, actor, named) : current.namespace_id;
  if (scope === 'namespace' && !namespaceId) throw fieldError('namespace_id', 'scope "namespace" needs a namespace_id');
  const userId = current?.user_id ?? (actor.userId || null);
  if (scope === 'personal' && !userId)
    throw fieldError(
      'scope',
      '"personal" schemas need a user; this credential has none (send a session or Bearer token)',
    );
  return { scope, namespaceId, userId };
}

/**
 * The definition after applying `body` to `current` (or to nothing on create), checked. No
 * store access: a create runs it before its transaction (patterns compile and defaults are
 * matched here, which is no work to hold locks for).
 */
function definitionOf(actor: Actor, body: UpdateSchemaBody, current?: SchemaRow): GraphSchemaDefinition {
  checkOrganization(actor, body);
  const def = {
    node_types: body.node_types ?? current?.node_types ?? {},
    relationship_types: body.relationship_types ?? current?.relationship_types ?? {},
  };
  checkDefinition(def);
  return def;
}

/** The stored fields after applying `body` to `current` (or to the defaults on create). */
async function fieldsOf(
  db: Queryable,
  ns: Pick<NamespaceAccess, 'resolveWriteNamespace'>,
  actor: Actor,
  body: UpdateSchemaBody,
  current?: SchemaRow,
  definition: GraphSchemaDefinition = definitionOf(actor, body, current),
): Promise<SchemaFields> {
  const nodeTypes = definition.node_types;
  const relationshipTypes = definition.relationship_types;
  const place = await placement(db, ns, actor, body, current);
  const definitionChanged =
    body.node_types !== undefined || body.relationship_types !== undefined || body.memory_policy !== undefined;
  return {
    namespace_id: place.namespaceId,
    user_id: place.userId,
    workspace_id:
      body.workspace_id !== undefined ? (pointerId(body.workspace_id) ?? null) : (current?.workspace_id ?? null),
    name: body.name ?? current!.name,
    description: body.description ?? current?.description ?? null,
    version: body.version ?? (current ? (definitionChanged ? bumpPatch(current.version) : current.version) : '1.0.0'),
    status: body.status ?? current?.status ?? 'draft',
    scope: place.scope,
    node_types: withNames(nodeTypes),
    relationship_types: withNames(relationshipTypes),
    memory_policy: body.memory_policy ?? current?.memory_policy ?? null,
    read_access: body.read_access ?? current?.read_access ?? [],
    write_access: body.write_access ?? current?.write_access ?? [],
  };
}

/** User graph schemas of an organization (client `schemas.*`). */
export function createSchemasService(db: Db, namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace'>) {
  /** A live schema the actor may change: visible, and in its own namespace for a namespace key. */
  async function writable(q: Queryable, actor: Actor, id: string, lock = false): Promise<SchemaRow> {
    const row = await getSchemaRow(q, readerOf(actor), id, lock);
    if (!row) throw notFound(`Schema ${id}`);
    requireSchemaAdmin(actor, row.scope);
    if (actor.namespaceId && row.namespace_id !== actor.namespaceId) {
      throw forbidden('A namespace API key can change only the schemas of its own namespace', {
        namespace_id: actor.namespaceId,
      });
    }
    return row;
  }

  return {
    /**
     * The namespace is looked up and key-share locked inside the inserting transaction: a
     * namespace deleted between a lookup outside it and the insert failed the foreign key (a
     * 500); now its deletion waits for this create (and takes the schema with it), or this
     * create finds it gone (a 404).
     */
    async create(actor: Actor, body: CreateSchemaBody): Promise<UserGraphSchema> {
      requirePermission(actor, 'write');
      const definition = definitionOf(actor, body);
      return db.transaction(async (tx) => {
        const fields = await fieldsOf(tx, namespaces, actor, body, undefined, definition);
        return toSchemaItem(await insertSchemaRow(tx, newId(), actor.organizationId, fields));
      });
    },

    async list(actor: Actor, q: ListSchemasQuery): Promise<{ items: UserGraphSchema[]; total: number }> {
      requirePermission(actor, 'read');
      const filter = {
        status: q.status_filter,
        workspaceId: q.workspace_id,
        namespaceId: q.namespace_id,
        scope: q.scope,
      };
      const { rows, total } = await listSchemaRows(db, readerOf(actor), filter, q.limit, q.skip);
      return { items: rows.map(toSchemaItem), total };
    },

    async get(actor: Actor, id: string): Promise<UserGraphSchema> {
      requirePermission(actor, 'read');
      const row = await getSchemaRow(db, readerOf(actor), id);
      if (!row) throw notFound(`Schema ${id}`);
      return toSchemaItem(row);
    },

    /** Partial update; a new definition without `version` bumps the patch number ("updates create a new version"). */
    async update(actor: Actor, id: string, body: UpdateSchemaBody): Promise<UserGraphSchema> {
      requirePermission(actor, 'write');
      return db.transaction(async (tx) => {
        const current = await writable(tx, actor, id, true);
        const row = await updateSchemaRow(
          tx,
          actor.organizationId,
          id,
          await fieldsOf(tx, namespaces, actor, body, current),
        );
        return toSchemaItem(row!);
      });
    },

    /** Soft delete: the row is kept (archived) for the graph nodes that name it, and 404 to every read. */
    async delete(actor: Actor, id: string): Promise<void> {
      requirePermission(actor, 'delete');
      await writable(db, actor, id);
      if (!(await softDeleteSchemaRow(db, actor.organizationId, id))) throw notFound(`Schema ${id}`);
    },
  };
}

export type SchemasService = ReturnType<typeof createSchemasService>;

export interface ActiveSchema {
  schema: UserGraphSchema;
  /** The schema's default memory policy (memory-level policy fields override it). */
  memoryPolicy: Record<string, unknown> | null;
}

/**
 * The schema a memory or graph write names (`schema_id`), for the graph module. With an
 * Actor, visibility is the same as GET /v1/schemas/{id} (no permission is required: the
 * caller checked its own); with an organization id the caller is internal and trusted
 * (e.g. a job), so personal schemas are visible too. 404 when unknown, deleted or not
 * visible; 422 naming `field` when its status is not `active` or `deprecated` (`draft` too
 * with `allowDraft`).
 */
export async function getActiveSchema(
  db: Queryable,
  who: Actor | string,
  schemaId: string,
  opts: { allowDraft?: boolean; field?: string } = {},
): Promise<ActiveSchema> {
  const reader: SchemaReader =
    typeof who === 'string' ? { organizationId: who, namespaceId: null, userId: null, trusted: true } : readerOf(who);
  const row = await getSchemaRow(db, reader, schemaId);
  if (!row) throw notFound(`Schema ${schemaId}`);
  const usable =
    row.status === 'active' || row.status === 'deprecated' || (opts.allowDraft === true && row.status === 'draft');
  if (!usable)
    throw fieldError(
      opts.field ?? 'schema_id',
      `schema ${schemaId} is ${row.status}; only active or deprecated schemas can be used`,
    );
  const schema = toSchemaItem(row);
  return { schema, memoryPolicy: schema.memory_policy };
}
