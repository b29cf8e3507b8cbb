/**
 * The MCP server's REST shapes (Langflow 1.7's project settings, install and installed) and the ids its transport
 * paths carry. The MCP messages themselves are the official SDK's schemas, never ours.
 */
import { z } from 'zod';
import { BoundedId, BoundedName } from './limits.js';
import { UuidString } from './flow.schema.js';

export const McpProjectParams = z.object({ project_id: UuidString });
export type McpProjectParams = z.infer<typeof McpProjectParams>;

/** A legacy SSE message post names its stream; the key may also come as a query parameter (Langflow's rule). */
export const McpMessageQuery = z.object({ session_id: BoundedId.optional(), 'x-api-key': z.string().optional() });

/** The API key of a project's transports may come as a query parameter. */
export const McpKeyQuery = z.object({ 'x-api-key': z.string().optional() });

export const McpAuthType = z.enum(['none', 'apikey']);
export type McpAuthType = z.infer<typeof McpAuthType>;

/**
 * Langflow's AuthSettings; only `none` and `apikey` are enforced here (OAuth needs Langflow's MCP Composer). Unlike
 * Langflow's, an absent `auth_type` is `apikey`: a project's server is public only where its owner wrote `none`.
 */
export const McpAuthSettings = z
  .object({
    auth_type: McpAuthType.default('apikey'),
    oauth_host: z.string().nullable().optional(),
    oauth_port: z.string().nullable().optional(),
    oauth_server_url: z.string().nullable().optional(),
    oauth_callback_path: z.string().nullable().optional(),
    oauth_client_id: z.string().nullable().optional(),
    oauth_client_secret: z.string().nullable().optional(),
    oauth_auth_url: z.string().nullable().optional(),
    oauth_token_url: z.string().nullable().optional(),
    oauth_mcp_scope: z.string().nullable().optional(),
    oauth_provider_scope: z.string().nullable().optional(),
  })
  .meta({ id: 'AuthSettings' });
export type McpAuthSettings = z.infer<typeof McpAuthSettings>;

/** One flow as a project's action (Langflow's MCPSettings). */
export const McpSettings = z
  .object({
    id: UuidString,
    mcp_enabled: z.boolean().nullable().optional(),
    action_name: BoundedName.nullable().optional(),
    action_description: z.string().nullable().optional(),
    name: BoundedName.nullable().optional(),
    description: z.string().nullable().optional(),
  })
  .meta({ id: 'MCPSettings' });
export type McpSettings = z.infer<typeof McpSettings>;

export const McpProjectSettingsRead = z
  .object({ tools: z.array(McpSettings), auth_settings: McpAuthSettings.nullable() })
  .meta({ id: 'MCPProjectResponse' });

export const McpProjectSettingsQuery = z.object({ mcp_enabled: z.enum(['true', 'false']).optional() });

/** Flow settings in one PATCH: a project's flows as one screen of the editor lists them, with room to spare. */
export const MCP_SETTINGS_MAX = 1_000;

export const McpProjectSettingsUpdate = z
  .object({
    settings: z.array(McpSettings).max(MCP_SETTINGS_MAX, `At most ${MCP_SETTINGS_MAX} items`),
    auth_settings: McpAuthSettings.nullable().optional(),
  })
  .meta({ id: 'MCPProjectUpdateRequest' });
export type McpProjectSettingsUpdate = z.infer<typeof McpProjectSettingsUpdate>;

export const McpProjectSettingsUpdated = z.object({ message: z.string() });

export const McpClientName = z.enum(['claude', 'cursor', 'windsurf']);
export type McpClientName = z.infer<typeof McpClientName>;

export const McpInstallRequest = z.object({
  client: McpClientName,
  transport: z.enum(['sse', 'streamablehttp']).default('streamablehttp'),
});
export type McpInstallRequest = z.infer<typeof McpInstallRequest>;

/** The configuration to paste into the client: this service never writes a desktop app's files. */
export const McpInstallReply = z.object({
  message: z.string(),
  client: McpClientName,
  server_name: z.string(),
  config: z.object({ mcpServers: z.record(z.string(), z.object({ command: z.string(), args: z.array(z.string()) })) }),
});

export const McpInstalledClient = z.object({ name: McpClientName, installed: z.boolean(), available: z.boolean() });

/** A flow tool's arguments: its input and, optionally, the session to continue (a store key, so bounded). */
export const McpToolArguments = z.object({ input_value: z.unknown().optional(), session_id: BoundedId.nullable().optional() }).loose();
export type McpToolArguments = z.infer<typeof McpToolArguments>;
