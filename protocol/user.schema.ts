/** Users as stored and as Langflow's UserRead shows them (note Langflow's `create_at`). */
import { z } from 'zod';
import { BoundedName } from './limits.js';

export const UserOptins = z.record(z.string(), z.unknown());

export const UserRecord = z.object({
  id: z.string(),
  username: z.string(),
  password_hash: z.string(),
  profile_image: z.string().nullable(),
  store_api_key: z.string().nullable(),
  is_active: z.boolean(),
  is_superuser: z.boolean(),
  create_at: z.string(),
  updated_at: z.string(),
  last_login_at: z.string().nullable(),
  optins: UserOptins.nullable(),
});
export type UserRecord = z.infer<typeof UserRecord>;

export const UserRead = UserRecord.omit({ password_hash: true }).meta({ id: 'UserRead' });
export type UserRead = z.infer<typeof UserRead>;

export const UserCreate = z.object({
  username: BoundedName.min(1),
  password: z.string().min(1),
  optins: UserOptins.optional(),
});

export const UserUpdate = z.object({
  username: BoundedName.min(1).optional(),
  profile_image: z.string().nullable().optional(),
  password: z.string().min(1).optional(),
  is_active: z.boolean().optional(),
  is_superuser: z.boolean().optional(),
  last_login_at: z.string().nullable().optional(),
  optins: UserOptins.nullable().optional(),
});

export const PasswordReset = z.object({ password: z.string().min(1) });

export function toUserRead(user: UserRecord): UserRead {
  const { password_hash: _hidden, ...rest } = user;
  return rest;
}
