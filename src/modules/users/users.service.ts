import type { Db, Queryable } from '../../platform/db/index.ts';
import { isEndUser, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, badRequest, notFound, unprocessable } from '../../shared/errors.ts';
import { receipt, type ReceiptPart } from '../../shared/receipt.ts';
import { iso } from '../../shared/time.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { requireSelf } from './self.ts';
import type { CreateUserBody, UpdateUserBody, UserResponse } from './users.schemas.ts';
import {
  deleteUserRow,
  purgeUserRecords,
  externalIdTaken,
  findUserByExternalId,
  getUser,
  insertUserIfAbsent,
  listUsers,
  lockUserRow,
  updateUser,
  type UserRow,
} from './users.store.ts';

/** UserResponse (client contract) for a stored user. */
export function toUserResponse(u: UserRow): UserResponse {
  return {
    code: 200,
    status: 'success',
    error: null,
    details: null,
    user_id: u.id,
    external_id: u.external_id,
    email: u.email,
    metadata: u.metadata ?? {},
    type: u.type,
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
  };
}

const fields = (b: UpdateUserBody) => ({
  externalId: b.external_id,
  email: b.email,
  metadata: b.metadata,
  type: b.type,
});
const duplicate = (externalId: string, existing?: string) =>
  badRequest(`A user with external_id "${externalId}" already exists`, {
    field: 'external_id',
    ...(existing ? { user_id: existing } : {}),
  });

/** Which user a delete names, and where. */
export interface UserDeleteTarget {
  userId?: string;
  externalId?: string;
  namespaceId?: string;
}

/**
 * What the modules holding a user's data remove when the user is deleted (in the deleting
 * transaction): the memories of the user, in one namespace or everywhere; returns how many.
 */
export interface UserContent {
  /** The user's memories with what hangs off them (graph, events, jobs …); the receipt's counts. */
  deleteUserContent(
    tx: Queryable,
    scope: { organizationId: string; namespaceId: string | null },
    userId: string,
    namespaceId: string | null,
  ): Promise<ReceiptPart>;
  /** The user's chat sessions and their messages (and jobs), in one namespace or everywhere; how many. */
  deleteUserSessions(
    tx: Queryable,
    organizationId: string,
    userId: string,
    namespaceId: string | null,
  ): Promise<{ sessions: number; messages: number } & ReceiptPart>;
  /** The user's document uploads (after their memories), in one namespace or everywhere. */
  deleteUserDocuments?(
    tx: Queryable,
    organizationId: string,
    userId: string,
    namespaceId: string | null,
  ): Promise<ReceiptPart>;
}

/**
 * End users of an organization (client `user.*`, spec DELETE /v1/user). Users are
 * organization-wide identities, so namespace keys may read, create and update them, but a
 * namespace key's delete is confined to its namespace: memories there, never the user row.
 */
export function createUsersService(deps: {
  db: Db;
  namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace'>;
  content: UserContent;
}) {
  const { db } = deps;
  /** An end user's own token names only themselves (403 before any lookup; self.ts). */
  const self = (actor: Actor, named: { userId?: string; externalUserId?: string }) =>
    requireSelf({ get: getUser }, db, actor, named);

  async function find(actor: Actor, t: UserDeleteTarget): Promise<UserRow> {
    await self(actor, { userId: t.userId, externalUserId: t.externalId });
    const byId = t.userId ? await getUser(db, actor.organizationId, t.userId) : undefined;
    if (t.userId && t.externalId && byId && byId.external_id !== t.externalId) {
      throw unprocessable('Conflicting fields: user_id and external_user_id name different users', {
        fields: ['user_id', 'external_user_id'],
      });
    }
    const user = t.userId
      ? byId
      : t.externalId
        ? await findUserByExternalId(db, actor.organizationId, t.externalId)
        : undefined;
    if (!t.userId && !t.externalId)
      throw unprocessable('Name the user: user_id or external_user_id', { fields: ['user_id', 'external_user_id'] });
    if (!user) throw notFound(`User ${t.userId ?? t.externalId}`);
    return user;
  }

  async function createOne(actor: Actor, body: CreateUserBody): Promise<UserRow> {
    // Creating a user names them: an end user's token exists only for an existing user (itself).
    await self(actor, { externalUserId: body.external_id });
    const row = await insertUserIfAbsent(db, actor.organizationId, { ...fields(body), externalId: body.external_id });
    if (!row)
      throw duplicate(body.external_id, (await findUserByExternalId(db, actor.organizationId, body.external_id))?.id);
    return row;
  }

  return {
    async create(actor: Actor, body: CreateUserBody): Promise<UserResponse> {
      requirePermission(actor, 'write');
      return toUserResponse(await createOne(actor, body));
    },

    /** Each user on its own: a duplicate is reported in its slot and does not stop the rest. */
    async createBatch(actor: Actor, users: CreateUserBody[]): Promise<UserResponse[]> {
      requirePermission(actor, 'write');
      const out: UserResponse[] = [];
      for (const u of users) {
        try {
          out.push(toUserResponse(await createOne(actor, u)));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          out.push({
            code: err.code,
            status: 'error',
            error: err.message,
            details: err.details,
            external_id: u.external_id,
          });
        }
      }
      return out;
    },

    async list(actor: Actor, q: { page: number; page_size: number; external_id?: string; email?: string }) {
      requirePermission(actor, 'read');
      await self(actor, { externalUserId: q.external_id });
      if (isEndUser(actor)) {
        // An end user's own token lists only them (filters still apply).
        const me = await getUser(db, actor.organizationId, actor.userId);
        const rows = me && (!q.email || me.email === q.email) && q.page === 1 ? [me] : [];
        return { items: rows.map(toUserResponse), total: rows.length };
      }
      const { rows, total } = await listUsers(
        db,
        actor.organizationId,
        { externalId: q.external_id, email: q.email },
        q.page_size,
        (q.page - 1) * q.page_size,
      );
      return { items: rows.map(toUserResponse), total };
    },

    async get(actor: Actor, id: string): Promise<UserResponse> {
      requirePermission(actor, 'read');
      await self(actor, { userId: id });
      const user = await getUser(db, actor.organizationId, id);
      if (!user) throw notFound(`User ${id}`);
      return toUserResponse(user);
    },

    async update(actor: Actor, id: string, body: UpdateUserBody): Promise<UserResponse> {
      requirePermission(actor, 'write');
      // An end user may edit their profile, never take another external id (ACLs name people by it).
      await self(actor, { userId: id, externalUserId: body.external_id });
      if (body.external_id && (await externalIdTaken(db, actor.organizationId, body.external_id, id)))
        throw duplicate(body.external_id);
      const user = await updateUser(db, actor.organizationId, id, fields(body));
      if (user === 'external_id_taken') throw duplicate(body.external_id!);
      if (!user) throw notFound(`User ${id}`);
      return toUserResponse(user);
    },

    /**
     * Delete a user's memories: in one namespace when one is named (or the credential is a
     * namespace key), keeping the user; otherwise everywhere, with the user row, its
     * sessions and OAuth grants (one transaction).
     */
    async delete(actor: Actor, target: UserDeleteTarget) {
      requirePermission(actor, 'delete');
      const user = await find(actor, target);
      const namespaceId = await deps.namespaces.resolveWriteNamespace(db, actor, target.namespaceId);
      const scope = { organizationId: actor.organizationId, namespaceId: actor.namespaceId };
      return db.transaction(async (tx) => {
        // The row is locked before anything of the user's goes: deleting the memories first and
        // the row last deadlocked with a write for the user (which holds a key-share lock on the
        // row while it adds to what the deletion removes). Gone by now: deleted by a concurrent
        // request since the lookup above, so a 404 as for a later call.
        if (!namespaceId && !(await lockUserRow(tx, actor.organizationId, user.id)))
          throw notFound(`User ${target.userId ?? target.externalId}`);
        const org = actor.organizationId;
        const memories = await deps.content.deleteUserContent(tx, scope, user.id, namespaceId);
        const removed = await deps.content.deleteUserSessions(tx, org, user.id, namespaceId);
        const documents = (await deps.content.deleteUserDocuments?.(tx, org, user.id, namespaceId)) ?? {};
        const records = await purgeUserRecords(tx, org, user.id, namespaceId, !namespaceId);
        const userDeleted = namespaceId ? false : await deleteUserRow(tx, org, user.id);
        const deleted = receipt(memories, removed, documents, records, { users: userDeleted ? 1 : 0 });
        return {
          userId: user.id,
          memoriesDeleted: deleted.memories,
          sessionsDeleted: removed.sessions,
          messagesDeleted: removed.messages,
          userDeleted,
          deleted,
        };
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
