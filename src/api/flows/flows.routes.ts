/** Flows endpoints (Langflow's /api/v1/flows). */
import type { Services } from '../../services/services.js';
import type { Route } from '../../edge/route.js';
import { flowCrudRoutes } from './flow-crud.routes.js';
import { flowPublicRoutes } from './flow-public.routes.js';
import { flowTransferRoutes } from './flow-transfer.routes.js';

export function flowsRoutes(services: Services): Route[] {
  return [...flowCrudRoutes(services), ...flowTransferRoutes(services), ...flowPublicRoutes(services)];
}
