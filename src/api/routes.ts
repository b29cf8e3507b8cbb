/** The route table: every endpoint of the service, by area. The uWS adapter binds exactly this list. */
import type { Services } from '../services/services.js';
import type { Route } from '../edge/route.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { docsRoutes } from './docs/docs.routes.js';
import { flowVersionsRoutes } from './flows/flow-versions.routes.js';
import { flowsRoutes } from './flows/flows.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { logsRoutes } from './logs/logs.routes.js';
import { metaRoutes } from './meta/meta.routes.js';
import { modelsRoutes } from './models/models.routes.js';
import { mcpProjectRoutes } from './mcp/mcp-project.routes.js';
import { mcpTransportRoutes } from './mcp/mcp-transport.routes.js';
import { messagesRoutes } from './monitor/messages.routes.js';
import { tracesRoutes } from './monitor/traces.routes.js';
import { transactionsRoutes } from './monitor/transactions.routes.js';
import { metricsRoutes } from './metrics/metrics.routes.js';
import { projectsRoutes } from './projects/projects.routes.js';
import { responsesRoutes } from './responses/responses.routes.js';
import { runRoutes } from './run/run.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { variablesRoutes } from './variables/variables.routes.js';
import { flowFilesRoutes } from './files/flow-files.routes.js';
import { profilePicturesRoutes } from './files/profile-pictures.routes.js';
import { userFilesRoutes } from './files/user-files.routes.js';
import { webhookRoutes } from './webhook/webhook.routes.js';
import { workflowsRoutes } from './workflows/workflows.routes.js';
import { flowBuildRoutes } from './build/build.routes.js';
import { publicBuildRoutes } from './build/build-public.routes.js';
import { removedBuildRoutes } from './build/removed-build.routes.js';
import { vertexBuildsRoutes } from './monitor/builds.routes.js';
import { customComponentRoutes } from './custom/custom-component.routes.js';
import { validateRoutes } from './custom/validate.routes.js';
import { storeRoutes } from './store/store.routes.js';
import type { SocketRoute } from '../edge/socket-route.js';
import { voiceRoutes } from './voice/voice.routes.js';
import { voiceSocketRoutes } from './voice/voice.sockets.js';
import { knowledgeBasesRoutes } from './knowledge-bases/knowledge-bases.routes.js';

export function buildRoutes(services: Services): Route[] {
  const routes: Route[] = [
    ...healthRoutes(services),
    // Only when FLOWSVC_PROMETHEUS_ENABLED is on; off, /metrics is a 404 like any path not served.
    ...(services.config.PROMETHEUS_ENABLED ? metricsRoutes(services) : []),
    ...authRoutes(services),
    ...usersRoutes(services),
    ...apiKeyRoutes(services),
    ...flowsRoutes(services),
    ...flowVersionsRoutes(services),
    ...projectsRoutes(services),
    ...metaRoutes(services),
    ...modelsRoutes(services),
    ...runRoutes(services),
    ...responsesRoutes(services),
    ...variablesRoutes(services),
    ...flowFilesRoutes(services),
    ...profilePicturesRoutes(),
    ...userFilesRoutes(services),
    ...messagesRoutes(services),
    ...tracesRoutes(services),
    ...transactionsRoutes(services),
    ...webhookRoutes(services),
    ...flowBuildRoutes(services),
    ...publicBuildRoutes(services),
    ...removedBuildRoutes(),
    ...vertexBuildsRoutes(services),
    ...mcpTransportRoutes(services),
    ...mcpProjectRoutes(services),
    ...validateRoutes(services),
    ...customComponentRoutes(services),
    ...storeRoutes(services),
    // Only when FLOWSVC_ENABLE_LOG_RETRIEVAL is on: off, /logs is a 404 like any path not served.
    ...(services.logRing ? logsRoutes(services.logRing) : []),
    ...voiceRoutes(services),
    ...knowledgeBasesRoutes(services),
    // The developer API (v2 workflows) does not exist at all when disabled: 404, as Langflow documents.
    ...(services.config.DEVELOPER_API_ENABLED ? workflowsRoutes(services) : []),
  ];
  routes.push(...docsRoutes(services, () => routes));
  return routes;
}

/** The WebSocket routes, served beside the route table on the same port by either adapter. */
export function buildSocketRoutes(services: Services): SocketRoute[] {
  return [...voiceSocketRoutes(services)];
}
