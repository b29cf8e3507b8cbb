/**
 * Legacy SSE sessions: a GET opens the stream (and a server for it), the client's POSTs carry its messages to that
 * server. The stream ending, for whatever reason, closes the session and aborts its calls.
 */
import { Reply } from '../../edge/reply.js';
import { scopeKey, type McpScope } from '../../services/mcp/mcp-scope.js';
import type { Services } from '../../services/services.js';
import { jsonOrUndefined } from './json-body.js';
import { createMcpServer } from './mcp-server.js';
import { ServerSession } from './server-session.js';
import { EdgeSseTransport } from './sse-transport.js';

/** A legacy SSE session: its id is its transport's. */
class SseSession extends ServerSession<EdgeSseTransport> {}

/** The SDK's SSE transports answer posts in plain text. */
const text = (body: string, status: number) => Reply.bytes(body, 'text/plain; charset=utf-8', status);

export class SseBridge {
  constructor(private readonly services: Services) {}

  /** Opens a session's stream; its first event names where to post (`messagesPath?session_id=...`). */
  async open(scope: McpScope, messagesPath: string): Promise<Reply> {
    const { sessions } = this.services.mcp;
    const scoped = createMcpServer(this.services, scope);
    const transport = new EdgeSseTransport(messagesPath);
    const session = new SseSession(transport.sessionId, scoped, transport);
    await scoped.server.connect(transport);
    sessions.add(session);
    const streamClosed = sessions.streamOpened(session.id);
    return Reply.stream('text/event-stream', (sink) => {
      sink.onClientGone(() => void session.close().catch(() => undefined));
      return transport.stream(sink).finally(() => {
        streamClosed();
        sessions.remove(session.id);
        void session.close().catch(() => undefined);
      });
    });
  }

  /** A message posted to a session's endpoint. */
  post(scope: McpScope, sessionId: string | undefined, raw: Buffer, headers: Record<string, string>): Reply {
    if (!sessionId) return text('session_id is required', 400);
    const session = this.services.mcp.sessions.get(sessionId, scopeKey(scope));
    if (!(session instanceof SseSession)) return text('Could not find session', 404);
    if (!session.transport.receive(jsonOrUndefined(raw), headers)) return text('Could not parse message', 400);
    return text('Accepted', 202);
  }
}

