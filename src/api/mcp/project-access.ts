/**
 * Who reaches a project's MCP server, by the project's `auth_settings` (Langflow's rules and 401 messages):
 * `apikey` wants a key of the project's owner (anyone else's project is "not found"); `none` lets any client in,
 * acting as the owner, which is what the owner chose.
 */
import { McpAuthSettings, type McpAuthType } from '../../../protocol/mcp.schema.js';
import type { ProjectRecord } from '../../../protocol/project.schema.js';
import { NotFoundError, UnauthenticatedError } from '../../errors/index.js';
import type { McpScope } from '../../services/mcp/mcp-scope.js';
import type { Services } from '../../services/services.js';

export const KEY_REQUIRED = 'API key required for this project. Provide x-api-key header or query parameter.';
export const KEY_INVALID = 'Invalid API key';

export function authTypeOf(project: ProjectRecord): McpAuthType {
  const parsed = McpAuthSettings.safeParse(project.auth_settings ?? {});
  return parsed.success ? parsed.data.auth_type : 'apikey';
}

export async function projectScope(services: Services, projectId: string, headers: Readonly<Record<string, string>>, queryKey?: string): Promise<McpScope> {
  const project = await services.store.projects.get(projectId);
  if (!project || !project.user_id) throw new NotFoundError('Project not found');
  if (authTypeOf(project) === 'apikey') {
    const apiKey = queryKey || headers['x-api-key'];
    if (!apiKey) throw new UnauthenticatedError(KEY_REQUIRED);
    const principal = await services.authenticator.authenticate('api-key-v2', { apiKey }).catch(() => null);
    if (!principal) throw new UnauthenticatedError(KEY_INVALID);
    if (principal.userId !== project.user_id) throw new NotFoundError('Project not found');
  }
  return { kind: 'project', ownerId: project.user_id, projectId: project.id };
}
