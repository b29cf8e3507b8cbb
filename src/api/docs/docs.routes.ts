/** The machine-readable description (/openapi.json) and the interactive page (/docs) (being built). */
import type { Services } from '../../app.js';
import type { Route } from '../../edge/route.js';

/** `all` returns the complete route table, so the document lists every route that exists. */
export function docsRoutes(_services: Services, _all: () => Route[]): Route[] {
  return [];
}
