/** searchapi.io's `GET /api/v1/search` (the key as a Bearer token): three organic results for any query. */
import { startStandIn, type StandIn } from './service-stand-in.js';

export const SEARCHAPI_KEY = 'searchapi-stand-in-key';

export const searchapiStandIn = (): Promise<StandIn> =>
  startStandIn({
    key: SEARCHAPI_KEY,
    keyOf: (request) => String(request.headers.authorization ?? '').replace(/^Bearer /, ''),
    routes: [
      [
        'GET',
        /^\/api\/v1\/search$/,
        (request) => ({
          search_parameters: Object.fromEntries(request.query),
          organic_results: [1, 2, 3].map((n) => ({ position: n, title: `Result ${n} for ${request.query.get('q')}`, link: `https://travel.example/${n}`, snippet: `Snippet ${n} `.repeat(20).trim() })),
        }),
      ],
    ],
  });
