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
