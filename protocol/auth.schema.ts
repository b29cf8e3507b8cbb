/** Login and token replies (Langflow's /login, /auto_login, /refresh). */
import { z } from 'zod';
import { BoundedName } from './limits.js';

export const Token = z
  .object({ access_token: z.string(), refresh_token: z.string().nullable(), token_type: z.literal('bearer') })
  .meta({ id: 'Token' });

export const LoginForm = z.object({
  username: BoundedName.min(1),
  password: z.string().min(1),
  grant_type: z.string().optional(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});
