/**
 * The one bridge between the SDK's web-standard Streamable HTTP transport and our edge: an exchange becomes a
 * `Request`, the transport's `Response` becomes a Reply (its SSE body streamed with backpressure). A request that
 * initializes opens a stateful session (the `mcp-session-id` header names it afterwards); any other request without
 * a session is served statelessly by a server of its own; an unknown session is the SDK's 404.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { Reply, type ReplyHeaders, type StreamSink } from '../../edge/reply.js';
import type { RouteRequest } from '../../edge/route.js';
import { scopeKey, type McpScope } from '../../services/mcp/mcp-scope.js';
import type { Services } from '../../services/services.js';
import { jsonOrUndefined } from './json-body.js';
import { createMcpServer } from './mcp-server.js';
import { ServerSession } from './server-session.js';

type Transport = WebStandardStreamableHTTPServerTransport;

/** What happens around one reply: the stream it holds open, and the calls to stop if its client goes away. */
interface ReplyHooks {
  ended(): void;
  clientGone(): void;
}

/**
 * Written first on a session's GET stream: the transport sends nothing until it has a notification, and without a
 * first write the reply's head would wait with it, so the client could not tell the stream is open.
 */
const STREAM_OPEN = ': stream open\n\n';

/** A stateful Streamable HTTP session. */
class StreamableSession extends ServerSession<Transport> {}

export class StreamableBridge {
  /** Answers every request naming a session this process does not hold: the SDK's own 404. */
  private readonly closed = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });

  constructor(private readonly services: Services) {
    void this.closed.close();
  }

  async handle(method: string, request: RouteRequest<unknown, unknown, Buffer>, scope: McpScope, path: string): Promise<Reply> {
    const key = scopeKey(scope);
    const parsedBody = jsonOrUndefined(request.body);
    const web = webRequest(method, request, path, parsedBody === undefined);
    const sessionId = request.headers['mcp-session-id'];
    const { sessions } = this.services.mcp;
    if (sessionId) {
      const session = sessions.get(sessionId, key);
      if (!(session instanceof StreamableSession)) return await toReply(await this.closed.handleRequest(web), NO_HOOKS);
      const response = await session.transport.handleRequest(web, { parsedBody });
      const streamClosed = sessions.streamOpened(session.id);
      const ids = requestIds(parsedBody);
      return toReply(response, { ended: streamClosed, clientGone: () => ids.forEach((id) => session.scoped.calls.stop(id)) }, method === 'GET');
    }
    // A notification stream needs a session to be told anything: without one it would only hold a connection.
    if (method === 'GET') return Reply.json({ detail: 'Method Not Allowed: a notification stream needs an mcp-session-id' }, 405, { allow: 'POST, DELETE' });
    const scoped = createMcpServer(this.services, scope);
    if (method === 'POST' && isInitializing(parsedBody)) {
      const id = randomUUID();
      const transport: Transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id });
      const session = new StreamableSession(id, scoped, transport);
      transport.onclose = () => sessions.remove(id);
      await scoped.server.connect(transport);
      sessions.add(session);
      const response = await transport.handleRequest(web, { parsedBody });
      // An initialize the transport refused (406, 415, a bad body) opened nothing.
      if (transport.sessionId !== id) await scoped.server.close();
      return toReply(response, { ended: sessions.streamOpened(id), clientGone: () => {} });
    }
    // Stateless: a server and transport for this request alone, closed with its reply (which aborts its calls).
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await scoped.server.connect(transport);
    const done = () => void scoped.server.close().catch(() => undefined);
    return toReply(await transport.handleRequest(web, { parsedBody }), { ended: done, clientGone: done });
  }
}

const NO_HOOKS: ReplyHooks = { ended: () => {}, clientGone: () => {} };

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

/**
 * The exchange as the transport reads a web Request: its method, its URL (only the path is read, so the host is
 * fixed and a client's Host header cannot make it invalid) and its headers (`get`, `entries`). A real Request
 * copies the headers and makes an AbortSignal and a body stream per call, none of which the transport uses when
 * handed the parsed body; it is built only when the transport must read the body itself (one we could not parse,
 * to answer its own parse error).
 */
function webRequest(method: string, request: RouteRequest<unknown, unknown, Buffer>, path: string, withBody: boolean): Request {
  const url = `http://localhost${path}`;
  if (withBody && request.body && request.body.length > 0) return new Request(url, { method, headers: webHeaders(request.headers), body: request.body as unknown as BodyInit });
  return { method, url, headers: new HeaderView(request.headers) } as unknown as Request;
}

/** Our parsed headers (names lower-cased) as far as the transport reads them. */
class HeaderView {
  constructor(private readonly headers: Readonly<Record<string, string>>) {}

  get(name: string): string | null {
    return this.headers[name.toLowerCase()] ?? null;
  }

  entries(): IterableIterator<[string, string]> {
    return Object.entries(this.headers)[Symbol.iterator]();
  }
}

/** A header the web API refuses is left out rather than failing. */
function webHeaders(source: Readonly<Record<string, string>>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(source)) {
    try {
      headers.set(name, value);
    } catch {
      // Not a header the transport reads.
    }
  }
  return headers;
}

async function toReply(response: Response, hooks: ReplyHooks, announce = false): Promise<Reply> {
  const headers: ReplyHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== 'connection' && name !== 'content-length') headers[name] = value;
  });
  const body = response.body;
  if (!body) {
    hooks.ended();
    return Reply.empty(response.status, headers);
  }
  const contentType = response.headers.get('content-type') ?? 'application/json';
  if (!contentType.includes('text/event-stream')) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    hooks.ended();
    return Reply.bytes(bytes, contentType, response.status, headers);
  }
  const produce = (sink: StreamSink) => {
    if (announce) sink.write(STREAM_OPEN);
    return pump(body, sink, hooks);
  };
  return new Reply(response.status, { kind: 'stream', produce }, headers);
}

/** Copies the SSE body to the socket, waiting whenever it is full; the client leaving cancels the body. */
async function pump(body: ReadableStream<Uint8Array>, sink: StreamSink, hooks: ReplyHooks): Promise<void> {
  const reader = body.getReader();
  sink.onClientGone(() => {
    hooks.clientGone();
    void reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || sink.closed) break;
      if (!sink.write(value)) await sink.drained();
    }
  } finally {
    hooks.ended();
  }
}
