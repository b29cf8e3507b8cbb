/**
 * The component store endpoints (deprecated, spec 4.7). The service has no store, so each answers as Langflow does
 * with its store disabled: reads are empty, and what needs the user's store API key says that it is missing, or
 * that the store is disabled. Every reply, errors included, carries a Deprecation header.
 */
import { z } from 'zod';
import { ListComponentResponseModel, StoreApiKeyCheck, StoreComponentParams, StoreEnabled, TagResponse, UsersLikesResponse } from '../../../protocol/store.schema.js';
import type { Principal } from '../../auth/principal.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type AuthMode, type HttpMethod, type Route } from '../../edge/route.js';
import type { Services } from '../../services/services.js';

const DEPRECATION = { deprecation: 'true' };
const NO_KEY = 'You must have a store API key set.';
const DISABLED = 'The component store is disabled on this server.';

export function storeRoutes(services: Services): Route[] {
  const hasStoreKey = async (principal: Principal | null) => Boolean(principal && (await services.users.get(principal.userId)).store_api_key);
  const ok = (value: unknown) => Reply.json(value, 200, DEPRECATION);
  const refused = (detail: string) => Reply.json({ detail }, 400, DEPRECATION);
  /** What needs the user's store key: refused for its absence, else because there is no store to ask. */
  const needsKey = async (principal: Principal | null) => refused((await hasStoreKey(principal)) ? DISABLED : NO_KEY);

  const route = (method: HttpMethod, path: string, summary: string, auth: AuthMode, handler: Route['handler'], extra: Partial<Route> = {}): Route =>
    defineRoute({ method, path: `/api/v1/store${path}`, summary: `${summary} (deprecated: the service has no component store)`, tags: ['Components Store'], auth, deprecated: true, handler, ...extra });

  return [
    route('GET', '/check', 'Whether the component store is enabled', 'none', () => ok({ enabled: false }), { responses: { 200: { description: 'Never enabled', schema: StoreEnabled } } }),
    route('GET', '/check/api_key', 'Whether the user has a valid store API key', 'user', async ({ principal }) => ok({ has_api_key: await hasStoreKey(principal), is_valid: false }), {
      responses: { 200: { description: 'A key can never be valid without a store', schema: StoreApiKeyCheck } },
    }),
    route('GET', '/components', 'List store components', 'user', () => ok({ count: 0, authorized: false, results: [] }), {
      responses: { 200: { description: 'Always empty', schema: ListComponentResponseModel } },
    }),
    route('POST', '/components', 'Share a component to the store', 'user', ({ principal }) => needsKey(principal), { bodyKind: 'raw' }),
    route('GET', '/components/:component_id', 'Download a store component', 'user', ({ principal }) => needsKey(principal), { params: StoreComponentParams }),
    route('PATCH', '/components/:component_id', 'Update a shared component', 'user', ({ principal }) => needsKey(principal), { params: StoreComponentParams, bodyKind: 'raw' }),
    route('GET', '/tags', 'Store tags', 'none', () => ok([]), { responses: { 200: { description: 'Always empty', schema: z.array(TagResponse) } } }),
    route('GET', '/users/likes', "The components the user liked", 'user', ({ principal }) => needsKey(principal), {
      responses: { 200: { description: 'Never answered without a store', schema: z.array(UsersLikesResponse) } },
    }),
    route('POST', '/users/likes/:component_id', 'Like a store component', 'user', ({ principal }) => needsKey(principal), { params: StoreComponentParams }),
  ];
}
