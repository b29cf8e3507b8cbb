/**
 * Routes the spec lists that this service does not serve yet: they answer 501 {"detail": "Not implemented yet"},
 * not a 404 that reads like a typo. One row per route, as data: the issue that builds a route deletes its row
 * (and a served route always wins: a row whose route exists is dropped when the table is built).
 */
import { AppError, ErrorKind } from '../../errors/app.error.js';
import { defineRoute, type HttpMethod, type Route } from '../../edge/route.js';
import { Router } from '../../edge/router.js';

type Row = readonly [HttpMethod, string];

const ROWS: readonly Row[] = [
  // Monitor records (spec 2.12).
  ['GET', '/api/v1/monitor/transactions'],
  ['GET', '/api/v1/monitor/traces'],
  // MCP (spec 4.7).
  ['HEAD', '/api/v1/mcp/streamable'],
  ['GET', '/api/v1/mcp/streamable'],
  ['POST', '/api/v1/mcp/streamable'],
  ['DELETE', '/api/v1/mcp/streamable'],
  ['HEAD', '/api/v1/mcp/sse'],
  ['GET', '/api/v1/mcp/sse'],
  ['POST', '/api/v1/mcp'],
  ['GET', '/api/v1/mcp/project/:project_id'],
  ['PATCH', '/api/v1/mcp/project/:project_id'],
  ['POST', '/api/v1/mcp/project/:project_id'],
  ['HEAD', '/api/v1/mcp/project/:project_id/streamable'],
  ['GET', '/api/v1/mcp/project/:project_id/streamable'],
  ['POST', '/api/v1/mcp/project/:project_id/streamable'],
  ['DELETE', '/api/v1/mcp/project/:project_id/streamable'],
  ['HEAD', '/api/v1/mcp/project/:project_id/sse'],
  ['GET', '/api/v1/mcp/project/:project_id/sse'],
  ['POST', '/api/v1/mcp/project/:project_id/install'],
  ['GET', '/api/v1/mcp/project/:project_id/installed'],
  // Custom components and validation (spec 4.7).
  ['POST', '/api/v1/custom_component'],
  ['POST', '/api/v1/custom_component/update'],
  ['POST', '/api/v1/validate/code'],
  ['POST', '/api/v1/validate/prompt'],
  // The deprecated component store (spec 4.7).
  ['GET', '/api/v1/store/check'],
  ['GET', '/api/v1/store/check/api_key'],
  ['GET', '/api/v1/store/components'],
  ['POST', '/api/v1/store/components'],
  ['GET', '/api/v1/store/components/:component_id'],
  ['PATCH', '/api/v1/store/components/:component_id'],
  ['GET', '/api/v1/store/tags'],
  ['GET', '/api/v1/store/users/likes'],
  ['POST', '/api/v1/store/users/likes/:component_id'],
];

export const UNSERVED_ROWS = ROWS;

const NOT_YET = new AppError(ErrorKind.NotImplemented, 'Not implemented yet');

/** A 501 route for every row that no served route answers. */
export function unservedRoutes(served: readonly Route[]): Route[] {
  const router = new Router();
  for (const route of served) router.add(route);
  return ROWS.filter(([method, path]) => router.match(method, path).kind !== 'found').map(([method, path]) =>
    defineRoute({
      method,
      path,
      summary: 'Listed by the spec, not served yet',
      tags: ['Not implemented'],
      auth: 'none',
      hidden: true,
      bodyKind: 'raw',
      responses: { 501: { description: 'Not implemented yet' } },
      handler: () => {
        throw NOT_YET;
      },
    }),
  );
}
