/** The official MCP SDK client against a test server, over Streamable HTTP or legacy SSE. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestServer } from './server.js';

export type McpTransportKind = 'streamable' | 'sse';

export interface McpConnection {
  client: Client;
  close(): Promise<void>;
}

/**
 * Connects to `<base>/streamable` or `<base>/sse` (base: `/api/v1/mcp` or a project's), sending `headers` on
 * every request (the test key unless `key` is null or another key).
 */
export async function connectMcp(server: TestServer, kind: McpTransportKind, options: { base?: string; key?: string | null; headers?: Record<string, string>; stateless?: boolean } = {}): Promise<McpConnection> {
  const base = options.base ?? '/api/v1/mcp';
  const key = options.key === undefined ? server.apiKey : options.key;
  const headers: Record<string, string> = { ...(key ? { 'x-api-key': key } : {}), ...options.headers };
  const url = new URL(`${server.url}${base}/${kind}`);
  const transport = kind === 'streamable' ? new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: options.stateless ? withoutSessions : undefined }) : new SSEClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: 'flowsvc-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async close() {
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/**
 * A client that never keeps a session: the session header is taken off every reply, so each request reaches the
 * server without one (how a stateless client, Langflow's own server mode, talks).
 */
const withoutSessions = async (url: string | URL, init?: RequestInit): Promise<Response> => {
  const response = await fetch(url, init);
  const headers = new Headers(response.headers);
  headers.delete('mcp-session-id');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};
