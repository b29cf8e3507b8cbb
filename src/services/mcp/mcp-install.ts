/**
 * The configuration a desktop MCP client (Claude Desktop, Cursor, Windsurf) needs to reach a project's server:
 * Langflow's `mcp-proxy` entry, answered as JSON for the user to paste. Unlike Langflow, nothing is written: a
 * server must not edit the files of desktop apps on the machine it happens to run on.
 */
import type { McpAuthType, McpClientName, McpInstallRequest } from '../../../protocol/mcp.schema.js';
import type { ProjectRecord } from '../../../protocol/project.schema.js';
import { MAX_MCP_SERVER_NAME_LENGTH, sanitizeMcpName } from '../../langflow/mcp-tool-names.js';

const CLIENT_NAMES: Record<McpClientName, string> = { claude: 'Claude Desktop', cursor: 'Cursor', windsurf: 'Windsurf' };

/** Stands where the user's API key goes: a real key is never put in a reply meant to be pasted elsewhere. */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

export interface InstallConfig {
  message: string;
  client: McpClientName;
  server_name: string;
  config: { mcpServers: Record<string, { command: string; args: string[] }> };
}

/** Langflow's server name: `lf-` and the sanitised project name, within 30 characters. */
export function projectServerName(project: ProjectRecord): string {
  const prefix = 'lf-';
  return `${prefix}${sanitizeMcpName(project.name, MAX_MCP_SERVER_NAME_LENGTH - prefix.length)}`;
}

export function installConfig(project: ProjectRecord, authType: McpAuthType, request: McpInstallRequest, baseUrl: string): InstallConfig {
  const streamable = request.transport === 'streamablehttp';
  const url = `${baseUrl}/api/v1/mcp/project/${project.id}/${streamable ? 'streamable' : 'sse'}`;
  const args = ['mcp-proxy', ...(streamable ? ['--transport', 'streamablehttp'] : []), ...(authType === 'apikey' ? ['--headers', 'x-api-key', API_KEY_PLACEHOLDER] : []), url];
  const serverName = projectServerName(project);
  return {
    message: `Add this server to ${CLIENT_NAMES[request.client]}'s MCP configuration file${authType === 'apikey' ? `, with your API key in place of ${API_KEY_PLACEHOLDER}` : ''}. This service does not edit client files itself.`,
    client: request.client,
    server_name: serverName,
    config: { mcpServers: { [serverName]: { command: 'uvx', args } } },
  };
}

/** No client is known to be configured: this service never writes their files, so it cannot say one is. */
export function installedClients(): { name: McpClientName; installed: boolean; available: boolean }[] {
  return (Object.keys(CLIENT_NAMES) as McpClientName[]).map((name) => ({ name, installed: false, available: true }));
}
