/** Users: whoami, superuser-managed CRUD, password reset (Langflow's /api/v1/users). */
import { z } from 'zod';
import { PasswordReset, toUserRead, UserCreate, UserRead, UserUpdate } from '../../../protocol/user.schema.js';
import type { Services } from '../../services/services.js';
import type { Principal } from '../../auth/principal.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError, ForbiddenError } from '../../errors/index.js';
import { UsersService } from '../../services/users.service.js';
import { BoundedId } from '../../../protocol/limits.js';

const UserIdParams = z.object({ user_id: BoundedId });
const UsersPage = z.object({ total_count: z.number().int(), users: z.array(UserRead) });

export function usersRoutes(services: Services): Route[] {
  const { users } = services;
  const me = (principal: Principal | null) => users.get(principal!.userId);

  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/users/whoami',
      summary: 'The current user',
      tags: ['Users'],
      auth: 'user',
      responses: { 200: { description: 'The user', schema: UserRead } },
      handler: async ({ principal }) => toUserRead(await me(principal)),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/users',
      summary: 'Add a user (superuser only)',
      tags: ['Users'],
      auth: 'superuser',
      body: UserCreate,
      responses: { 201: { description: 'Created', schema: UserRead } },
      async handler({ body }) {
        const user = await users.create({ username: body.username, password: body.password, optins: body.optins });
        return Reply.json(toUserRead(user), 201);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/users',
      summary: 'List users (superuser only)',
      tags: ['Users'],
      auth: 'superuser',
      query: z.object({ skip: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).default(10) }),
      responses: { 200: { description: 'A page of users', schema: UsersPage } },
      async handler({ query }) {
        const all = await users.list();
        return { total_count: all.length, users: all.slice(query.skip, query.skip + query.limit).map(toUserRead) };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/users/:user_id',
      summary: 'Update a user (yourself, or anyone as superuser)',
      tags: ['Users'],
      auth: 'user',
      params: UserIdParams,
      body: UserUpdate,
      responses: { 200: { description: 'Updated', schema: UserRead } },
      async handler({ params, body, principal }) {
        UsersService.assertCanEdit(principal!, params.user_id);
        if (!principal!.isSuperuser && (body.is_superuser !== undefined || body.is_active !== undefined)) throw new ForbiddenError('Permission denied');
        if (!principal!.isSuperuser && body.password !== undefined) throw new BadRequestError('You can\'t change your password here');
        const changes: Parameters<UsersService['update']>[1] = {};
        if (body.username !== undefined) changes.username = body.username;
        if (body.profile_image !== undefined) changes.profile_image = body.profile_image;
        if (body.password !== undefined) changes.password = body.password;
        if (body.is_active !== undefined) changes.is_active = body.is_active;
        if (body.is_superuser !== undefined) changes.is_superuser = body.is_superuser;
        if (body.last_login_at !== undefined) changes.last_login_at = body.last_login_at;
        if (body.optins !== undefined) changes.optins = body.optins;
        return toUserRead(await users.update(await users.get(params.user_id), changes));
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/users/:user_id/reset-password',
      summary: 'Change your own password',
      tags: ['Users'],
      auth: 'user',
      params: UserIdParams,
      body: PasswordReset,
      responses: { 200: { description: 'Updated', schema: UserRead } },
      async handler({ params, body, principal }) {
        if (params.user_id !== principal!.userId) throw new ForbiddenError('You can\'t change another user\'s password');
        return toUserRead(await users.resetPassword(await me(principal), body.password));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/users/:user_id',
      summary: 'Delete a user (superuser only; not yourself)',
      tags: ['Users'],
      auth: 'superuser',
      params: UserIdParams,
      responses: { 200: { description: 'Deleted', schema: z.object({ detail: z.string() }) } },
      async handler({ params, principal }) {
        await users.delete(principal!.userId, params.user_id);
        return { detail: 'User deleted' };
      },
    }),
  ];
}
