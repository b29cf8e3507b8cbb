/** API keys: stored hashed; shown masked, except once on creation. */
import { z } from 'zod';
import { BoundedName } from './limits.js';

export const ApiKeyRecord = z.object({
  id: z.string(),
  name: z.string().nullable(),
  user_id: z.string(),
  /** sha256 of the key, hex. Keys are 256-bit random, so a fast hash is safe and keeps auth cheap. */
  hash: z.string(),
  /** First 8 characters, for the masked display. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  total_uses: z.number().int(),
  is_active: z.boolean(),
});
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

export const ApiKeyRead = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    api_key: z.string(),
    user_id: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    total_uses: z.number().int(),
    is_active: z.boolean(),
  })
  .meta({ id: 'ApiKeyRead' });

export const ApiKeysList = z.object({ total_count: z.number().int(), user_id: z.string(), api_keys: z.array(ApiKeyRead) });

export const ApiKeyCreate = z.object({ name: BoundedName.nullable().optional() }).loose();

export const StoreApiKey = z.object({ api_key: z.string().min(1) });
