/** Metadata the Langflow editor reads at start-up: version, deployment config, and the component catalog. */
import { ComponentCatalog, ConfigResponse, VersionResponse } from '../../../protocol/meta.schema.js';
import type { Services } from '../../services/services.js';
import { COMPONENTS } from '../../components/registry.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { componentCatalog } from '../../langflow/component-catalog.js';
import { configResponse } from '../../langflow/config-response.js';
import { storedCustomNodes, withStoredComponents } from '../../langflow/stored-components.js';
import { versionResponse } from '../../langflow/version-response.js';
import { DEFAULT_PROJECT_NAME } from '../../services/projects.service.js';
import { packageVersion } from '../../package-version.js';

export function metaRoutes(services: Services): Route[] {
  // Everything here is fixed for the life of the process (package, config, registry), so it is computed once.
  const version = versionResponse(packageVersion());
  const config = configResponse(services.config, DEFAULT_PROJECT_NAME);
  // The catalog is large and asked for on every editor load: serialise it once, each request then copies bytes.
  // Not gzipped, unlike Langflow: clients take plain JSON, and compression belongs to a proxy if anywhere.
  const catalogJson = Buffer.from(JSON.stringify(componentCatalog(COMPONENTS)));

  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/version',
      summary: 'The service version',
      tags: ['Metadata'],
      auth: 'none',
      responses: { 200: { description: 'Version of this service', schema: VersionResponse } },
      handler: () => version,
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/config',
      summary: 'Deployment configuration the editor needs (limits, auto-save, event delivery)',
      tags: ['Metadata'],
      auth: 'user',
      responses: { 200: { description: 'The configuration', schema: ConfigResponse } },
      handler: () => config,
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/all',
      summary: "Every component type, as editor node templates grouped by category (with the caller's stored custom components)",
      tags: ['Metadata'],
      auth: 'user',
      responses: { 200: { description: 'category -> component type -> node template', schema: ComponentCatalog } },
      handler: async ({ principal }) => {
        // Stored custom components are listed where they can run; elsewhere they would only fail when used.
        if (!services.config.CUSTOM_COMPONENTS) return Reply.bytes(catalogJson, 'application/json');
        const stored = storedCustomNodes(await services.flows.list(principal!.userId, { componentsOnly: true, removeExamples: true }));
        return Reply.bytes(withStoredComponents(catalogJson, stored), 'application/json');
      },
    }),
  ];
}
