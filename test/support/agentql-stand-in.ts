/** AgentQL's `POST /v1/query-data` (the key in X-API-Key): the extracted data echoes what was asked. */
import { startStandIn, type StandIn } from './service-stand-in.js';

export const AGENTQL_KEY = 'agentql-stand-in-key';

export const agentqlStandIn = (): Promise<StandIn> =>
  startStandIn({
    key: AGENTQL_KEY,
    keyOf: (request) => request.headers['x-api-key'] as string | undefined,
    routes: [
      [
        'POST',
        /^\/v1\/query-data$/,
        (request) => ({
          data: { products: [{ name: 'Flow kit', price: '$12', page: request.body.url }], asked: request.body.query || request.body.prompt },
          metadata: { request_id: 'req-1', generated_query: null, screenshot: null },
        }),
      ],
    ],
  });
