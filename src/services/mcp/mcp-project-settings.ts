/**
 * A project's MCP settings with Langflow 1.7's shapes: which of its flows are actions, under which names and
 * descriptions, and how its MCP server authenticates (secrets masked when read).
 */
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import type { McpAuthSettings, McpProjectSettingsUpdate, McpSettings } from '../../../protocol/mcp.schema.js';
import type { ProjectRecord } from '../../../protocol/project.schema.js';
import { sanitizeMcpName } from '../../langflow/mcp-tool-names.js';
import type { FlowsService } from '../flows.service.js';
import type { ProjectsService } from '../projects.service.js';
import { describe } from './mcp-catalog.js';
import type { McpSessions } from './mcp-sessions.js';
import { scopeKey } from './mcp-scope.js';

const MASK = '*******';

export interface ProjectSettingsRead {
  tools: McpSettings[];
  auth_settings: McpAuthSettings | null;
}

export class McpProjectSettings {
  constructor(
    private readonly projects: ProjectsService,
    private readonly flows: FlowsService,
    private readonly sessions: McpSessions,
  ) {}

  /** The project's flows as actions (only the enabled ones unless `enabledOnly` is false). */
  async read(userId: string, projectId: string, enabledOnly: boolean): Promise<ProjectSettingsRead> {
    const project = await this.projects.owned(userId, projectId);
    const flows = (await this.projects.flowsIn(project)).filter((flow) => !flow.is_component && (!enabledOnly || flow.mcp_enabled));
    return { tools: flows.map((flow) => settingsOf(project, flow)), auth_settings: masked(project.auth_settings) };
  }

  /** Enables, disables and renames the listed flows of the project; replaces its auth settings when given. */
  async update(userId: string, projectId: string, update: McpProjectSettingsUpdate): Promise<{ message: string }> {
    const project = await this.projects.owned(userId, projectId);
    // One write per flow of the project, however often the list names it (the last entry wins, as Langflow's
    // dict does), all in flight together: a long list of repeats was as many writes, one after another.
    const wanted = new Map(update.settings.map((setting) => [setting.id, setting]));
    const members = (await this.projects.flowsIn(project)).filter((flow) => wanted.has(flow.id));
    await Promise.all(
      members.map((flow) => {
        const setting = wanted.get(flow.id)!;
        return this.flows.update(userId, flow.id, { mcp_enabled: setting.mcp_enabled, action_name: setting.action_name, action_description: setting.action_description });
      }),
    );
    const updated = members.length;
    if (update.auth_settings === undefined) return { message: `Updated MCP settings for ${updated} flows` };
    await this.projects.update(userId, projectId, { auth_settings: unmasked(update.auth_settings, project.auth_settings) });
    // Sessions opened under the old rules do not outlive them: clients reconnect under the new ones.
    await this.sessions.closeScope(scopeKey({ kind: 'project', ownerId: userId, projectId }));
    return { message: `Updated MCP settings for ${updated} flows and project auth settings` };
  }
}

function settingsOf(project: ProjectRecord, flow: FlowRecord): McpSettings {
  return {
    id: flow.id,
    mcp_enabled: flow.mcp_enabled,
    action_name: sanitizeMcpName(flow.action_name || flow.name),
    action_description: describe({ kind: 'project', ownerId: project.user_id ?? '', projectId: project.id }, flow),
    name: flow.name,
    description: flow.description,
  };
}

function masked(settings: Record<string, unknown> | null): McpAuthSettings | null {
  if (!settings) return null;
  const copy = { ...settings } as McpAuthSettings;
  if (copy.oauth_client_secret) copy.oauth_client_secret = MASK;
  return copy;
}

/** A client sending back the mask it read keeps the secret it had. */
function unmasked(next: McpAuthSettings | null, current: Record<string, unknown> | null): McpAuthSettings | null {
  if (!next || next.oauth_client_secret !== MASK) return next;
  return { ...next, oauth_client_secret: (current?.oauth_client_secret as string | undefined) ?? null };
}
