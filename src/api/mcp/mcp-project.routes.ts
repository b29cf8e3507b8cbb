/**
 * A project's MCP settings (Langflow 1.7's GET/PATCH shapes) and the desktop-client helpers: install answers the
 * configuration to paste (nothing is written outside the data dir), installed says which clients we know of.
 */
import { z } from 'zod';
import {
  McpInstallReply,
  McpInstallRequest,
  McpInstalledClient,
  McpProjectParams,
  McpProjectSettingsQuery,
  McpProjectSettingsRead,
  McpProjectSettingsUpdate,
  McpProjectSettingsUpdated,
} from '../../../protocol/mcp.schema.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { installConfig, installedClients } from '../../services/mcp/mcp-install.js';
import type { Services } from '../../services/services.js';
import { authTypeOf } from './project-access.js';

const PROJECT = '/api/v1/mcp/project/:project_id';

export function mcpProjectRoutes(services: Services): Route[] {
  const { mcp, projects, config } = services;
  const common = { tags: ['MCP'], auth: 'user' as const, params: McpProjectParams };
  return [
    defineRoute({
      method: 'GET',
      path: PROJECT,
      summary: "A project's MCP actions and auth settings",
      ...common,
      query: McpProjectSettingsQuery,
      responses: { 200: { description: 'The actions and auth settings (secrets masked)', schema: McpProjectSettingsRead } },
      handler: ({ params, query, principal }) => mcp.projectSettings.read(principal!.userId, params.project_id, query.mcp_enabled !== 'false'),
    }),
    defineRoute({
      method: 'PATCH',
      path: PROJECT,
      summary: "Enables, disables and renames a project's MCP actions; sets its auth",
      ...common,
      body: McpProjectSettingsUpdate,
      responses: { 200: { description: 'How many flows changed', schema: McpProjectSettingsUpdated } },
      handler: ({ params, body, principal }) => mcp.projectSettings.update(principal!.userId, params.project_id, body),
    }),
    defineRoute({
      method: 'POST',
      path: `${PROJECT}/install`,
      summary: 'The configuration a desktop MCP client needs for this project (answered, never written)',
      ...common,
      body: McpInstallRequest,
      responses: { 200: { description: 'The client configuration to paste', schema: McpInstallReply } },
      async handler({ params, body, principal, headers }) {
        const project = await projects.owned(principal!.userId, params.project_id);
        return installConfig(project, authTypeOf(project), body, `http://${headers.host || `${config.HOST}:${config.PORT}`}`);
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${PROJECT}/installed`,
      summary: 'Which desktop MCP clients are known to be configured for this project',
      ...common,
      responses: { 200: { description: 'One entry per client', schema: z.array(McpInstalledClient) } },
      async handler({ params, principal }) {
        await projects.owned(principal!.userId, params.project_id);
        return installedClients();
      },
    }),
  ];
}
