import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelope, errorResponses } from '../../platform/http/schemas.ts';
import type { UsersService } from './users.service.ts';
import {
  createUserBody,
  createUsersBatchBody,
  deleteUserPathQuery,
  deleteUserQuery,
  deleteUserResponse,
  listUsersQuery,
  updateUserBody,
  userIdParams,
  userListResponse,
  userResponse,
} from './users.schemas.ts';

const tags = ['user'];
const ok = { code: 200, status: 'success', error: null, details: null };

/** User endpoints (client `user.*`; spec DELETE /v1/user). Thin: validate, one call, shape. */
export function usersRoutes(users: UsersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/user',
      {
        schema: {
          tags,
          summary: 'Create a user',
          body: createUserBody,
          response: { 200: userResponse, ...errorResponses },
        },
      },
      async (req) => users.create(req.actor, req.body),
    );

    app.post(
      '/v1/user/batch',
      {
        schema: {
          tags,
          summary: 'Create users (each reported in its slot)',
          body: createUsersBatchBody,
          response: {
            ...errorResponses,
            200: userListResponse,
            207: userListResponse,
            400: z.union([userListResponse, errorEnvelope]),
          },
        },
      },
      async (req, reply) => {
        const data = await users.createBatch(req.actor, req.body.users);
        const failed = data.filter((u) => u.status === 'error').length;
        const code = failed === 0 ? 200 : failed < data.length ? 207 : 400;
        const status = code === 200 ? 'success' : code === 207 ? 'partial' : 'error';
        return reply.code(code).send({
          code,
          status,
          error: failed ? `${failed} of ${data.length} users failed` : null,
          details: null,
          data,
          total: data.length,
          page: 1,
          page_size: data.length,
        });
      },
    );

    app.get(
      '/v1/user',
      {
        schema: {
          tags,
          summary: 'List users',
          querystring: listUsersQuery,
          response: { 200: userListResponse, ...errorResponses },
        },
      },
      async (req) => {
        const { items, total } = await users.list(req.actor, req.query);
        return { ...ok, data: items, total, page: req.query.page, page_size: req.query.page_size };
      },
    );

    app.get(
      '/v1/user/:user_id',
      {
        schema: {
          tags,
          summary: 'Get a user',
          params: userIdParams,
          response: { 200: userResponse, ...errorResponses },
        },
      },
      async (req) => users.get(req.actor, req.params.user_id),
    );

    app.put(
      '/v1/user/:user_id',
      {
        schema: {
          tags,
          summary: 'Update a user',
          params: userIdParams,
          body: updateUserBody,
          response: { 200: userResponse, ...errorResponses },
        },
      },
      async (req) => users.update(req.actor, req.params.user_id, req.body),
    );

    type Deleted = Awaited<ReturnType<UsersService['delete']>>;
    const deleted = (r: Deleted) => {
      const what = `${r.memoriesDeleted} memories, ${r.sessionsDeleted} chat sessions (${r.messagesDeleted} messages)`;
      return {
        ...ok,
        user_id: r.userId,
        memories_deleted: r.memoriesDeleted,
        sessions_deleted: r.sessionsDeleted,
        messages_deleted: r.messagesDeleted,
        user_deleted: r.userDeleted,
        deleted: r.deleted,
        message: r.userDeleted
          ? `User deleted with ${what}`
          : `Deleted ${what} of the user in the namespace; the user is kept`,
      };
    };

    app.delete(
      '/v1/user/:user_id',
      {
        schema: {
          tags,
          summary: 'Delete a user (client form)',
          params: userIdParams,
          querystring: deleteUserPathQuery,
          response: { 200: deleteUserResponse, ...errorResponses },
        },
      },
      async (req) => {
        const id = req.params.user_id;
        const target = req.query.is_external ? { externalId: id } : { userId: id };
        return deleted(await users.delete(req.actor, { ...target, namespaceId: req.query.namespace_id }));
      },
    );

    app.delete(
      '/v1/user',
      {
        schema: {
          tags,
          summary: 'Delete a user (spec form)',
          querystring: deleteUserQuery,
          response: { 200: deleteUserResponse, ...errorResponses },
        },
      },
      async (req) =>
        deleted(
          await users.delete(req.actor, {
            userId: req.query.user_id,
            externalId: req.query.external_user_id,
            namespaceId: req.query.namespace_id,
          }),
        ),
    );
  };
}
