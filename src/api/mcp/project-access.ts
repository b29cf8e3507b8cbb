/**
 * Who reaches a project's MCP server. Its owner only (one of their API keys, or their access token), unless the
 * owner wrote `auth_type: none` in the project's `auth_settings`: then any client acts as the owner, which is what
 * the owner chose. Settings that are missing, null, `apikey` or anything else are owner-only: a project's server is
 * never public by default. Refusals are Langflow's (its API-key project auth): no credentials or a bad key a 401,
 * another user's credentials "Project not found" (a 404, as for every object of someone else's).
 */
import type { McpAuthType } from '../../../protocol/mcp.schema.js';
import type { ProjectRecord } from '../../../protocol/project.schema.js';
import { credentialsOf } from '../../edge/wire.js';
import { NotFoundError, UnauthenticatedError } from '../../errors/index.js';
import type { McpScope } from '../../services/mcp/mcp-scope.js';
import type { Services } from '../../services/services.js';

export const KEY_REQUIRED = 'API key required for this project. Provide x-api-key header or query parameter.';
export const KEY_INVALID = 'Invalid API key';

/** `none` only where the owner wrote it; every other setting (none at all included) wants the owner. */
export function authTypeOf(project: ProjectRecord): McpAuthType {
  return project.auth_settings?.auth_type === 'none' ? 'none' : 'apikey';
}

/** Who a request to a project's server acts for, and whether it proved to be the owner (a visitor did not). */
export interface ProjectAccess {
  scope: McpScope;
  visitor: boolean;
}

export async function projectAccess(services: Services, projectId: string, headers: Readonly<Record<string, string>>, queryKey?: string): Promise<ProjectAccess> {
  const project = await services.store.projects.get(projectId);
  if (!project || !project.user_id) throw new NotFoundError('Project not found');
  const scope: McpScope = { kind: 'project', ownerId: project.user_id, projectId: project.id };
  const credentials = credentialsOf(headers as Record<string, string>, queryKey ? { 'x-api-key': queryKey } : {});
  const anonymous = !credentials.apiKey && !credentials.bearer;
  if (authTypeOf(project) === 'none' && anonymous) return { scope, visitor: true };
  const { config } = services;
  // Without credentials only a deployment that lets keyless requests act as the superuser gets further.
  if (anonymous && !(config.AUTO_LOGIN && config.SKIP_AUTH_AUTO_LOGIN)) throw new UnauthenticatedError(KEY_REQUIRED);
  const principal = await services.authenticator.authenticate('user', credentials).catch((error: unknown) => {
    if (credentials.apiKey) throw new UnauthenticatedError(KEY_INVALID);
    throw error;
  });
  if (principal?.userId === project.user_id) return { scope, visitor: false };
  // Someone else's credentials: on a public server they are a visitor like any other, elsewhere not let in.
  if (authTypeOf(project) === 'none') return { scope, visitor: true };
  throw new NotFoundError('Project not found');
}
