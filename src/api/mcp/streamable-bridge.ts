/**
 * Streamable HTTP requests to their servers. A request that initializes opens a stateful session (the
 * `mcp-session-id` header names it afterwards), served by our own transport over the edge; any other request
 * without a session is served statelessly, by a server and an SDK web-standard transport of its own; an unknown
 * session is the SDK's 404.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { Reply } from '../../edge/reply.js';
import type { RouteRequest } from '../../edge/route.js';
import { scopeKey, type McpScope } from '../../services/mcp/mcp-scope.js';
import type { Services } from '../../services/services.js';
import { jsonOrUndefined } from './json-body.js';
import { createMcpServer } from './mcp-server.js';
import { withHooks } from './reply-hooks.js';
import { ServerSession } from './server-session.js';
import { EdgeStreamableTransport, rpcError } from './streamable-transport.js';
import { toReply, webRequest } from './web-exchange.js';

/** A stateful Streamable HTTP session. */
class StreamableSession extends ServerSession<EdgeStreamableTransport> {}

export class StreamableBridge {
  constructor(private readonly services: Services) {}

  async handle(method: string, request: Pick<RouteRequest<unknown, unknown, Buffer>, 'body' | 'headers'>, scope: McpScope, path: string): Promise<Reply> {
    const parsedBody = jsonOrUndefined(request.body);
    const sessionId = request.headers['mcp-session-id'];
    const { sessions } = this.services.mcp;
    if (sessionId) {
      const session = sessions.get(sessionId, scopeKey(scope));
      if (!(session instanceof StreamableSession)) return rpcError(404, -32001, 'Session not found');
      const ids = requestIds(parsedBody);
      const hooks = { ended: sessions.streamOpened(session.id), clientGone: () => ids.forEach((id) => session.scoped.calls.stop(id)) };
      return withHooks(await sessionReply(session.transport, method, request.headers, parsedBody), hooks);
    }
    // A notification stream needs a session to be told anything: without one it would only hold a connection.
    if (method === 'GET') return Reply.json({ detail: 'Method Not Allowed: a notification stream needs an mcp-session-id' }, 405, { allow: 'POST, DELETE' });
    const scoped = createMcpServer(this.services, scope);
    if (method === 'POST' && isInitializing(parsedBody)) {
      const id = randomUUID();
      const transport = new EdgeStreamableTransport(id, new URL(`http://localhost${path}`));
      const session = new StreamableSession(id, scoped, transport);
      transport.onclose = () => sessions.remove(id);
      await scoped.server.connect(transport);
      sessions.add(session);
      const reply = transport.post(request.headers, parsedBody);
      // An initialize the transport refused (406, 415, a bad body) opened nothing.
      if (transport.sessionId !== id) await scoped.server.close();
      return withHooks(reply, { ended: sessions.streamOpened(id), clientGone: () => {} });
    }
    // Stateless: a server and transport for this request alone, closed with its reply (which aborts its calls).
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await scoped.server.connect(transport);
    const done = () => void scoped.server.close().catch(() => undefined);
    const web = webRequest(method, request, path, parsedBody === undefined);
    return toReply(await transport.handleRequest(web, { parsedBody }), { ended: done, clientGone: done });
  }
}

function sessionReply(transport: EdgeStreamableTransport, method: string, headers: Readonly<Record<string, string>>, body: unknown): Reply | Promise<Reply> {
  if (method === 'POST') return transport.post(headers, body);
  if (method === 'GET') return transport.get(headers);
  return transport.delete(headers);
}

function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : body === undefined ? [] : [body];
}

const isInitializing = (body: unknown) => messagesOf(body).some(isInitializeRequest);

/**
 * The ids of the requests a POST carries, to stop their calls if the client goes away. The transport validates
 * the messages; this only needs their ids, not a second schema parse per call.
 */
function requestIds(body: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of messagesOf(body)) {
    if (typeof message !== 'object' || message === null) continue;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}
