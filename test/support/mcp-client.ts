/** The official MCP SDK client against a test server, over Streamable HTTP or legacy SSE. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestServer } from './server.js';
import { occurrence } from './within.js';

export type McpTransportKind = 'streamable' | 'sse';

export interface McpConnection {
  client: Client;
  /** Resolves once the server can send this client notifications unasked (its GET stream answered; SSE: at once). */
  listening: Promise<void>;
  close(): Promise<void>;
}

export interface McpConnectOptions {
  /** `/api/v1/mcp` (default) or a project's `/api/v1/mcp/project/<id>`. */
  base?: string;
  /** The API key sent (default: the test key; null: none). */
  key?: string | null;
  headers?: Record<string, string>;
  /** Never keeps a session: every request reaches the server without one. */
  stateless?: boolean;
}

/** Connects to `<base>/streamable` or `<base>/sse`, sending the key and `headers` on every request. */
export async function connectMcp(server: TestServer, kind: McpTransportKind, options: McpConnectOptions = {}): Promise<McpConnection> {
  const base = options.base ?? '/api/v1/mcp';
  const key = options.key === undefined ? server.apiKey : options.key;
  const headers: Record<string, string> = { ...(key ? { 'x-api-key': key } : {}), ...options.headers };
  const url = new URL(`${server.url}${base}/${kind}`);
  const opened = occurrence();
  const watched = async (target: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(target, init);
    if (init?.method === 'GET' && response.ok) opened.fire();
    if (!options.stateless) return response;
    const kept = new Headers(response.headers);
    kept.delete('mcp-session-id');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: kept });
  };
  const transport = kind === 'streamable' ? new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: watched }) : new SSEClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: 'flowsvc-test', version: '1.0.0' });
  await client.connect(transport);
  if (kind === 'sse') opened.fire();
  return {
    client,
    listening: opened.happened,
    async close() {
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}
