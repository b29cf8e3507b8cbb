/**
 * A connection to an MCP server with the official SDK's client, as Langflow's MCP Tools component makes one:
 * Streamable HTTP (falling back to legacy SSE when the server does not speak it) for a URL, stdio for a command.
 * HTTP goes through the private network guard unless the service allows private networks; a command runs only
 * when the operator lists it in FLOWSVC_MCP_STDIO_COMMANDS.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ComponentError } from '../component.error.js';
import type { NetworkPolicy } from '../contract.js';
import { undici } from '../shared/heavy-modules.js';
import { lazyModule } from '../shared/lazy-module.js';
import { unbracketed } from '../shared/private-addresses.js';
import { privateNetworkGuard, refusalOf } from '../shared/private-network-guard.js';

const sdkClient = lazyModule('@modelcontextprotocol/sdk/client', () => import('@modelcontextprotocol/sdk/client/index.js'));
const streamable = lazyModule('@modelcontextprotocol/sdk/client/streamableHttp', () => import('@modelcontextprotocol/sdk/client/streamableHttp.js'));
const sse = lazyModule('@modelcontextprotocol/sdk/client/sse', () => import('@modelcontextprotocol/sdk/client/sse.js'));
const stdio = lazyModule('@modelcontextprotocol/sdk/client/stdio', () => import('@modelcontextprotocol/sdk/client/stdio.js'));

/** Where the server is: a URL (with headers) or a command (with arguments and environment). */
export type McpServerConfig = { url: string; headers: Record<string, string> } | { command: string; args: string[]; env: Record<string, string> };

export interface McpPolicy extends NetworkPolicy {
  /** Commands the operator allows as stdio servers (FLOWSVC_MCP_STDIO_COMMANDS). */
  stdioCommands: readonly string[];
}

/** Opens a client on the server, runs `use` with it, and closes it whatever happens. */
export async function withMcpClient<T>(config: McpServerConfig, policy: McpPolicy, signal: AbortSignal, use: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(config, policy, signal);
  try {
    return await use(client);
  } finally {
    await client.close().catch(() => {});
  }
}

async function newClient(): Promise<Client> {
  const { Client } = await sdkClient.load();
  return new Client({ name: 'flowsvc', version: '1.0.0' });
}

async function connect(config: McpServerConfig, policy: McpPolicy, signal: AbortSignal): Promise<Client> {
  const client = await newClient();
  if ('command' in config) {
    if (!policy.stdioCommands.includes(config.command)) {
      throw new ComponentError(`The MCP server command "${config.command}" is not allowed here: the operator lists the commands MCP Tools may run in FLOWSVC_MCP_STDIO_COMMANDS (empty by default)`);
    }
    const { StdioClientTransport } = await stdio.load();
    await client.connect(new StdioClientTransport({ command: config.command, args: config.args, env: config.env, stderr: 'ignore' }), { signal });
    return client;
  }
  const url = new URL(config.url);
  const fetch = await guardedFetch(policy, signal);
  const requestInit = { headers: config.headers };
  try {
    const { StreamableHTTPClientTransport } = await streamable.load();
    await client.connect(new StreamableHTTPClientTransport(url, { fetch, requestInit }), { signal });
    return client;
  } catch (error) {
    await client.close().catch(() => {});
    if (signal.aborted) throw signal.reason ?? error;
    const status = (error as { code?: unknown }).code;
    failure(config.url, error, status === 404 || status === 405 ? undefined : 'stop');
  }
  // A server without Streamable HTTP (404, 405): the legacy SSE transport, as the SDK's own clients fall back.
  const legacy = await newClient();
  try {
    const { SSEClientTransport } = await sse.load();
    await legacy.connect(new SSEClientTransport(url, { fetch, requestInit, eventSourceInit: { fetch } }), { signal });
    return legacy;
  } catch (error) {
    await legacy.close().catch(() => {});
    if (signal.aborted) throw signal.reason ?? error;
    failure(config.url, error, 'stop');
    throw error;
  }
}

/** Rethrows a refusal or (with `stop`) any error as a ComponentError naming the URL; otherwise returns. */
function failure(url: string, error: unknown, stop: 'stop' | undefined): void {
  const refusal = refusalOf(error) ?? refusalOf((error as { cause?: unknown }).cause);
  if (refusal) {
    const host = unbracketed(new URL(url).hostname);
    const why = refusal.host === host ? `it ${refusal.reason}` : `it was redirected to ${refusal.host}, which ${refusal.reason}`;
    throw new ComponentError(`MCP server ${url} refused: ${why} (FLOWSVC_ALLOW_PRIVATE_NETWORK=true allows it)`);
  }
  if (stop) throw new ComponentError(`MCP server ${url} could not be reached: ${(error as Error).message}`, { cause: error });
}

let guard: import('undici').Agent | undefined;

/** fetch for the SDK's transports: through the guard unless private networks are allowed, and bound to the run. */
async function guardedFetch(policy: McpPolicy, signal: AbortSignal): Promise<typeof globalThis.fetch> {
  const client = await undici.load();
  const dispatcher = policy.allowPrivateNetwork ? client.getGlobalDispatcher() : (guard ??= privateNetworkGuard(client));
  return ((input: string | URL | Request, init?: RequestInit) => {
    const combined = init?.signal ? AbortSignal.any([signal, init.signal]) : signal;
    return client.fetch(input as never, { ...(init as object), signal: combined, dispatcher } as never);
  }) as unknown as typeof globalThis.fetch;
}
