/**
 * One MCP server (the official SDK's low-level `Server`) for a scope: its tools are flows (McpCatalog), a call is
 * a run (tool-call.ts), its resources are the flows' files, and it has no prompts. A server serves one session
 * (or one stateless request); the transports in this folder connect it to the edge.
 */
import { buffer } from 'node:stream/consumers';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { McpToolArguments } from '../../../protocol/mcp.schema.js';
import { packageVersion } from '../../package-version.js';
import { CallsInFlight } from '../../services/mcp/calls-in-flight.js';
import { serverName, type McpScope } from '../../services/mcp/mcp-scope.js';
import type { Services } from '../../services/services.js';
import { headerVariables } from '../run/global-vars.js';
import { callFlowTool, type CallExtra } from './tool-call.js';

export interface ScopedServer {
  server: Server;
  calls: CallsInFlight;
  scope: McpScope;
}

const RESOURCE_PATH = /^\/api\/v1\/files\/([^/]+)\/(.+)$/;

/**
 * One JSON Schema validator for every server. Unless given one, the SDK makes each server an Ajv instance of its
 * own, formats and all, held as long as its session; it only checks a client's answer to an elicitation, and
 * these servers never elicit.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

export function createMcpServer(services: Services, scope: McpScope): ScopedServer {
  const { mcp } = services;
  const calls = new CallsInFlight();
  const server = new Server(
    { name: serverName(scope), version: packageVersion() },
    { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {}, logging: {} }, jsonSchemaValidator: SCHEMA_VALIDATOR },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await mcp.catalog.listing(scope) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = await mcp.catalog.find(scope, request.params.name);
    // Langflow's SDK turns a raised error into an error result, not a protocol error.
    if (!tool) return errorResult(`Flow with name '${request.params.name}' not found`);
    const args = McpToolArguments.safeParse(request.params.arguments ?? {});
    if (!args.success) return errorResult(`Invalid arguments: ${args.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    return callFlowTool(services, calls, { tool, ownerId: scope.ownerId, args: args.data, requestVariables: variablesOf(extra) }, extra);
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [] }));
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const base = baseUrlOf(services, extra);
    const resources = [];
    for (const { flow } of await mcp.catalog.tools(scope)) {
      for (const name of await services.flowFiles.list(scope.ownerId, flow.id)) {
        resources.push({ uri: `${base}/api/v1/files/${flow.id}/${encodeURIComponent(name)}`, name, mimeType: 'application/octet-stream' });
      }
    }
    return { resources };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const match = RESOURCE_PATH.exec(safePath(uri));
    if (!match) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`);
    const [, flowId, encoded] = match;
    const name = safeDecode(encoded);
    const tools = await mcp.catalog.tools(scope);
    // Only a file the listing names: a name like `../<other flow>/<file>` must not reach the storage.
    const listed = tools.some((tool) => tool.flow.id === flowId) && (await services.flowFiles.list(scope.ownerId, flowId)).includes(name);
    if (!listed) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`);
    const bytes = await buffer(await services.flowFiles.open(scope.ownerId, flowId, name));
    return { contents: [{ uri, mimeType: 'application/octet-stream', blob: bytes.toString('base64') }] };
  });
  return { server, calls, scope };
}

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** `X-LANGFLOW-GLOBAL-VAR-*` / `X-FLOWSVC-GLOBAL-VAR-*` headers of the request that carried the call. */
function variablesOf(extra: CallExtra): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra.requestInfo?.headers ?? {})) {
    if (typeof value === 'string') headers[name.toLowerCase()] = value;
  }
  return headerVariables(headers);
}

/** Where the client reached us, for resource URIs it can fetch. */
function baseUrlOf(services: Services, extra: CallExtra): string {
  const host = extra.requestInfo?.headers?.host;
  return `http://${typeof host === 'string' && host ? host : `${services.config.HOST}:${services.config.PORT}`}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}

function safePath(uri: string): string {
  try {
    return new URL(uri).pathname;
  } catch {
    return '';
  }
}
