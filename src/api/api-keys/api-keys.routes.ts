/** API keys of the current user (Langflow's /api/v1/api_key). */
import { z } from 'zod';
import { ApiKeyCreate, ApiKeyRead, ApiKeysList, StoreApiKey } from '../../../protocol/api-key.schema.js';
import type { Services } from '../../services/services.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BoundedId } from '../../../protocol/limits.js';

export function apiKeyRoutes(services: Services): Route[] {
  const { apiKeys, users, secrets } = services;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/api_key',
      summary: 'List your API keys (masked)',
      tags: ['APIKey'],
      auth: 'user',
      responses: { 200: { description: 'Keys', schema: ApiKeysList } },
      handler: async ({ principal }) => {
        const keys = await apiKeys.list(principal!.userId);
        return { total_count: keys.length, user_id: principal!.userId, api_keys: keys };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/api_key',
      summary: 'Create an API key; the plain key is returned only here',
      tags: ['APIKey'],
      auth: 'user',
      body: ApiKeyCreate.optional(),
      responses: { 200: { description: 'The new key, unmasked', schema: ApiKeyRead } },
      handler: ({ principal, body }) => apiKeys.create(principal!.userId, body?.name),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/api_key/:api_key_id',
      summary: 'Revoke an API key',
      tags: ['APIKey'],
      auth: 'user',
      params: z.object({ api_key_id: BoundedId }),
      responses: { 200: { description: 'Deleted', schema: z.object({ detail: z.string() }) } },
      async handler({ principal, params }) {
        await apiKeys.delete(principal!.userId, params.api_key_id);
        return { detail: 'API Key deleted' };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/api_key/store',
      summary: 'Save the component store API key on your user',
      tags: ['APIKey'],
      auth: 'user',
      body: StoreApiKey,
      responses: { 200: { description: 'Saved', schema: z.object({ detail: z.string() }) } },
      async handler({ principal, body }) {
        // Kept sealed, as Langflow encrypts it: the user record is returned by whoami.
        await users.update(await users.get(principal!.userId), { store_api_key: secrets.seal(body.api_key) });
        return { detail: 'API Key saved' };
      },
    }),
  ];
}
