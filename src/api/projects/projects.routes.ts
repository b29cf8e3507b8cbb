/**
 * Projects endpoints (Langflow's /api/v1/projects) and their /api/v1/folders aliases: Langflow redirects the old
 * folder paths to projects; answering them directly saves clients a round trip and keeps them out of the docs.
 */
import type { Services } from '../../services/services.js';
import type { Route } from '../../edge/route.js';
import { projectCrudRoutes } from './project-crud.routes.js';
import { projectTransferRoutes } from './project-transfer.routes.js';
import { starterProjectRoutes } from './starter-projects.routes.js';

const PROJECTS = '/api/v1/projects';
const FOLDERS = '/api/v1/folders';

export function projectsRoutes(services: Services): Route[] {
  const routes = [...projectCrudRoutes(services), ...projectTransferRoutes(services)];
  const aliases = routes.map((route) => ({ ...route, path: FOLDERS + route.path.slice(PROJECTS.length), hidden: true }));
  return [...routes, ...aliases, ...starterProjectRoutes(services)];
}
