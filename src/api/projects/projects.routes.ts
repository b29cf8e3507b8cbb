/** Projects endpoints (being built). */
import type { Services } from '../../app.js';
import type { Route } from '../../edge/route.js';

export function projectsRoutes(_services: Services): Route[] {
  return [];
}
