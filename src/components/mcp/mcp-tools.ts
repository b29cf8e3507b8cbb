/**
 * MCP Tools (Langflow's MCPTools): the tools of an MCP server, handed to an Agent as its tools. The node's
 * `mcp_server` is Langflow's `{name, config}`, config being `{url, headers}` (Streamable HTTP or SSE) or `{command,
 * args, env}` (stdio, only for commands the operator allows). Listing and each call open their own connection
 * with the official SDK's client, so nothing stays open once the run is over.
 */
import { z } from 'zod';
import { TOOL_NAME, type ToolValue } from '../../values/tool.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type FieldSpec } from '../contract.js';
import { bool, dict, float, text } from '../fields.js';
import { withMcpClient, type McpPolicy, type McpServerConfig } from './mcp-connection.js';

const mcpServerField: FieldSpec<unknown> = {
  schema: z.unknown(),
  type: 'mcp',
  inputClass: 'McpInput',
  accepts: 'any',
  displayName: 'MCP Server',
  info: 'The MCP server to connect to: {name, config: {url, headers}} or {name, config: {command, args, env}}.',
  value: {},
};

export const mcpTools = defineComponent({
  type: 'MCPTools',
  version: 1,
  displayName: 'MCP Tools',
  description: 'Connect to an MCP server to use its tools.',
  category: 'agents',
  icon: 'Mcp',
  fields: {
    mcp_server: mcpServerField,
    headers: dict({ displayName: 'Headers', info: 'HTTP headers sent to the MCP server with every request (with the config\'s own).', advanced: true }),
    tool: text({ displayName: 'Tool', info: 'The tool the component runs outside tool mode; as tools, every tool of the server is offered.', show: false }),
    tool_execution_timeout: float({ displayName: 'Tool Execution Timeout', info: 'Seconds a tool call may take (0: the run\'s own bound).', value: 0, min: 0 }),
    use_cache: bool({ displayName: 'Use Cached Server', info: 'Ignored here: every run lists the server\'s tools afresh.', advanced: true }),
    verify_ssl: bool({ displayName: 'Verify SSL Certificate', info: 'Certificates are always verified here.', value: true, advanced: true }),
  },
  outputs: [{ name: 'component_as_tool', displayName: 'Toolset', types: ['Tool'], method: 'to_toolkit' }],
  async run(inputs, ctx) {
    const config = serverConfig(inputs.mcp_server, inputs.headers);
    const policy: McpPolicy = { allowPrivateNetwork: ctx.network?.allowPrivateNetwork === true, stdioCommands: ctx.network?.mcpStdioCommands ?? [] };
    const listed = await withMcpClient(config, policy, ctx.signal, (client) => client.listTools());
    const timeoutMs = inputs.tool_execution_timeout > 0 ? inputs.tool_execution_timeout * 1000 : undefined;
    const tools: ToolValue[] = listed.tools.map((tool) => ({
      kind: 'tool',
      name: toolName(tool.name),
      description: tool.description ?? tool.name,
      parameters: tool.inputSchema as Record<string, unknown>,
      invoke: (args, signal) =>
        withMcpClient(config, policy, signal, async (client) => {
          const result = await client.callTool({ name: tool.name, arguments: args }, undefined, { signal, ...(timeoutMs ? { timeout: timeoutMs } : {}) });
          return resultText(result.content);
        }),
    }));
    return { component_as_tool: tools };
  },
});

/** Langflow's `{name, config}` (or a bare config) as where to connect; anything else is refused naming the field. */
function serverConfig(value: unknown, extraHeaders: Record<string, unknown>): McpServerConfig {
  const holder = isObject(value) && isObject(value.config) ? value.config : value;
  const name = isObject(value) && typeof value.name === 'string' ? value.name : '';
  if (isObject(holder) && typeof holder.url === 'string' && holder.url.trim()) {
    const url = holder.url.trim();
    if (!/^https?:\/\//i.test(url)) throw new ComponentError(`Field "MCP Server" (mcp_server): the URL must be http or https, got ${url}`);
    return { url, headers: { ...stringsOf(holder.headers), ...stringsOf(extraHeaders) } };
  }
  if (isObject(holder) && typeof holder.command === 'string' && holder.command.trim()) {
    const args = Array.isArray(holder.args) ? holder.args.map(String) : [];
    return { command: holder.command.trim(), args, env: stringsOf(holder.env) };
  }
  const which = name ? `the server "${name}" has no url or command here (servers are not stored by this service: give its config in the node)` : 'no MCP server is chosen';
  throw new ComponentError(`Field "MCP Server" (mcp_server): ${which}; set {name, config: {url}} or {name, config: {command, args}}`);
}

/** What a tool answered, as text for the model: its text parts, other parts as JSON. */
function resultText(content: unknown): string {
  if (!Array.isArray(content)) return JSON.stringify(content ?? null);
  return content.map((part) => (isObject(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
}

const toolName = (name: string) => (TOOL_NAME.test(name) ? name : name.replace(/[^a-zA-Z0-9_-]/g, '_'));

function stringsOf(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => [k, String(v)]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
