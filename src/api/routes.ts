/** The route table: every endpoint of the service, by area. The uWS adapter binds exactly this list. */
import type { Services } from '../app.js';
import type { Route } from '../edge/route.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { usersRoutes } from './users/users.routes.js';

export function buildRoutes(services: Services): Route[] {
  return [...healthRoutes(services), ...authRoutes(services), ...usersRoutes(services), ...apiKeyRoutes(services)];
}
