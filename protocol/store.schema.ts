/**
 * Wire shapes of Langflow's component store endpoints (api/v1/store.py, services/store/schema.py), deprecated: the
 * service has no store, so it answers as Langflow does with its store disabled.
 */
import { z } from 'zod';

export const StoreEnabled = z.object({ enabled: z.boolean() }).meta({ id: 'StoreEnabled' });

export const StoreApiKeyCheck = z.object({ has_api_key: z.boolean(), is_valid: z.boolean() }).meta({ id: 'StoreApiKeyCheck' });

export const ListComponentResponseModel = z
  .object({ count: z.number().int(), authorized: z.boolean(), results: z.array(z.record(z.string(), z.unknown())) })
  .meta({ id: 'ListComponentResponseModel' });

export const TagResponse = z.object({ id: z.string(), name: z.string() }).meta({ id: 'TagResponse' });

export const UsersLikesResponse = z.object({ likes_count: z.number().int(), liked_by_user: z.boolean() }).meta({ id: 'UsersLikesResponse' });

export const StoreComponentParams = z.object({ component_id: z.uuid() });
