/**
 * One OMO object made into a memory item for this organization: checked, mapped
 * (omo.mapping.ts), its owner, namespace and ACL decided here (docs/omo.md, "Import"). Shared
 * by POST /v1/omo/import and POST /v1/memory?format=omo.
 */
import type { Queryable } from '../../platform/db/index.ts';
import { isEndUser, type Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import { addMemoryBody, type AddMemoryBody } from '../memories/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { requireSelf, type UserDirectory } from '../users/index.ts';
import { aclMapper } from './omo.acl.ts';
import { omoKeys, sourceOf, toMemoryBody } from './omo.mapping.ts';
import { omoObject } from './omo.schemas.ts';

export interface IntakeDeps {
  db: Queryable;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace' | 'exists'>;
}

/** What the request names for all its objects (they win over each object's own). */
export interface IntakeSelectors {
  user_id?: string;
  external_user_id?: string;
  namespace_id?: string;
}

/** An object ready for the memory writer. */
export interface MappedObject {
  omoId: string;
  /** Ids it is known by (its own, its origin's): skip_duplicates looks for these. */
  keys: string[];
  body: AddMemoryBody;
  /** Its owner's internal id when known before storing (content duplicates are looked up by it). */
  ownerId?: string;
  /** Who will own it, as one string (two objects of one owner and content are one memory). */
  ownerKey: string;
}

/** A 422 carrying the zod issues as {field, message}. */
export function invalid(what: string, issues: { path: PropertyKey[]; message: string }[]): AppError {
  const list = issues.map((i) => ({ field: i.path.map(String).join('.') || null, message: i.message }));
  return new AppError(422, `${what}: ${list.map((i) => `${i.field ?? 'object'}: ${i.message}`).join('; ')}`, {
    issues: list,
  });
}

/** A check's AppError (a 4xx the caller caused) read as `value`; anything else propagates. */
function refusedAs<T>(value: T) {
  return (err: unknown): T => {
    if (err instanceof AppError) return value;
    throw err;
  };
}

/** A lookup run once per key for the request. */
function once<T>(load: (key: string) => Promise<T>) {
  const seen = new Map<string, Promise<T>>();
  return (key: string) => {
    if (!seen.has(key)) seen.set(key, load(key));
    return seen.get(key)!;
  };
}

/**
 * The mapper of one request. Its selectors are checked first (an unknown `user_id` is a 404,
 * a namespace the caller may not write to a 403/404: for the whole request). Then each object:
 * owner — an end user's own token: always that user; else the request's user, else the
 * object's own external user (created on first sight), else its internal user when that user
 * is one of this organization's, else the caller. Namespace — the request's, else the
 * object's own when the caller may write there, else the caller's (a namespace key's).
 */
export async function omoIntake(deps: IntakeDeps, actor: Actor, sel: IntakeSelectors) {
  const { db, users } = deps;
  const org = actor.organizationId;
  if (sel.user_id && !(await users.get(db, org, sel.user_id))) throw new AppError(404, `User ${sel.user_id} not found`);
  const forced =
    sel.namespace_id !== undefined
      ? await deps.namespaces.resolveWriteNamespace(db, actor, sel.namespace_id)
      : undefined;
  const namespaceUsable = once((id) =>
    deps.namespaces.resolveWriteNamespace(db, actor, id).then(() => true, refusedAs(false)),
  );
  const userById = once((id) => users.get(db, org, id).then((u) => u?.id));
  const userByExternal = once((id) => users.findByExternalId(db, org, id).then((u) => u?.id));
  const mapAcl = aclMapper({ db, organizationId: org, users, namespaces: deps.namespaces });

  async function ownerOf(source: ReturnType<typeof sourceOf>) {
    const me = { owner: {}, ownerId: actor.userId || undefined, ownerKey: 'me' };
    if (isEndUser(actor)) return me;
    if (sel.user_id) return { owner: { user_id: sel.user_id }, ownerId: sel.user_id, ownerKey: `u:${sel.user_id}` };
    const external = sel.external_user_id ?? source.externalUserId;
    if (external)
      return {
        owner: { external_user_id: external },
        ownerId: await userByExternal(external),
        ownerKey: `e:${external}`,
      };
    if (source.userId && (await userById(source.userId)))
      return { owner: { user_id: source.userId }, ownerId: source.userId, ownerKey: `u:${source.userId}` };
    return me;
  }

  /** One object as a memory item, or the AppError (422) it is refused with. */
  return async function map(raw: unknown): Promise<MappedObject | AppError> {
    const parsed = omoObject.safeParse(raw);
    if (!parsed.success) return invalid('Invalid OMO object', parsed.error.issues);
    const omo = parsed.data;
    const source = sourceOf(omo);
    const { owner, ownerId, ownerKey } = await ownerOf(source);
    const namespaceId =
      forced !== undefined
        ? forced
        : source.namespaceId && (await namespaceUsable(source.namespaceId))
          ? source.namespaceId
          : actor.namespaceId;
    const mapped = toMemoryBody(omo);
    const acl = {
      read: await mapAcl(omo.acl?.read, source, namespaceId),
      write: await mapAcl(omo.acl?.write, source, namespaceId),
    };
    const item = {
      ...mapped,
      ...owner,
      ...(namespaceId ? { namespace_id: namespaceId } : {}),
      policy: { ...mapped.policy, acl },
    };
    const checked = addMemoryBody.safeParse(item);
    if (!checked.success) return invalid('This object does not make a valid memory', checked.error.issues);
    return { omoId: omo.id, keys: omoKeys(omo), body: checked.data, ownerId, ownerKey };
  };
}

/**
 * POST /v1/memory?format=omo (the memories module's OmoBodies port): one object as the memory
 * item, owner and namespace as in an import; `external_user_id` and `namespace_id` beside the
 * object's own fields name where it goes. A refused object is its 4xx.
 */
export function omoMemoryBodies(deps: IntakeDeps) {
  return async (actor: Actor, raw: unknown): Promise<AddMemoryBody> => {
    const o = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    const sel = { external_user_id: str(o.external_user_id), namespace_id: str(o.namespace_id) };
    await requireSelf(deps.users, deps.db, actor, { externalUserId: sel.external_user_id });
    const mapped = await (await omoIntake(deps, actor, sel))(raw);
    if (mapped instanceof AppError) throw mapped;
    return mapped.body;
  };
}
