import { z } from 'zod';
import { deletionReceipt } from '../../platform/http/schemas.ts';

const userType = z.enum(['developerUser', 'user', 'agent']);

/** POST /v1/user (client `user.create`). */
export const createUserBody = z.object({
  external_id: z.string().trim().min(1).max(512).describe("The application's own user id (unique in the organization)"),
  email: z.string().max(320).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  type: userType.optional().describe('Default: user'),
});
export type CreateUserBody = z.infer<typeof createUserBody>;

export const createUsersBatchBody = z.object({ users: z.array(createUserBody).min(1).max(100) });

/** PUT /v1/user/{user_id}: absent fields stay; metadata replaces the stored object. */
export const updateUserBody = createUserBody.partial();
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const userIdParams = z.object({ user_id: z.string().min(1).max(512) });

export const listUsersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('1-based page number'),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  external_id: z.string().max(512).optional(),
  email: z.string().max(320).optional(),
});

/** DELETE /v1/user/{user_id} (client form). */
export const deleteUserPathQuery = z.object({
  is_external: z.stringbool().optional().describe('true: {user_id} is an external id'),
  namespace_id: z.string().max(200).optional().describe('Delete only the memories in this namespace; the user is kept'),
});

/** DELETE /v1/user (spec form). */
export const deleteUserQuery = z.object({
  user_id: z.string().max(512).optional(),
  external_user_id: z.string().max(512).optional(),
  namespace_id: z.string().max(200).optional().describe('Delete only the memories in this namespace; the user is kept'),
});

const envelope = {
  code: z.number().int(),
  status: z.string(),
  error: z.string().nullable(),
  details: z.unknown().nullable(),
};

/** UserResponse (client contract); also the element of batch and list results. */
export const userResponse = z.object({
  ...envelope,
  user_id: z.string().optional().describe('Internal id'),
  external_id: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  type: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type UserResponse = z.infer<typeof userResponse>;

export const userListResponse = z.object({
  ...envelope,
  data: z.array(userResponse),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const deleteUserResponse = z.object({
  ...envelope,
  user_id: z.string(),
  message: z.string(),
  memories_deleted: z.number().int(),
  sessions_deleted: z.number().int().describe('Chat sessions removed with their messages'),
  messages_deleted: z.number().int(),
  user_deleted: z.boolean().describe('false when namespace_id limited the deletion to memories'),
  deleted: deletionReceipt,
});
