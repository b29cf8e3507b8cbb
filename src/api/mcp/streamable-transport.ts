/**
 * MCP's Streamable HTTP transport for one stateful session, over our edge: the SDK's web-standard transport's
 * rules and answers (406, 415, the parse errors, 400 on a second initialize, 404 on a foreign session id, an
 * unsupported protocol version, 409 on a second GET stream), without a web Request, Response and ReadableStream
 * per call: those were most of what a tool call cost beyond a v1 run. A POST carrying requests is answered as an
 * SSE stream that ends with its last answer; notifications about no request go to the session's GET stream.
 */
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { Reply } from '../../edge/reply.js';
import { SseReply } from './sse-reply.js';

/** Written first on a GET stream: without a first write its head would wait for the first notification. */
const STREAM_OPEN = ': stream open\n\n';

type RequestHeaders = Readonly<Record<string, string>>;

/** The SDK transport's error answer: a JSON-RPC error with no id. */
export const rpcError = (status: number, code: number, message: string) => Reply.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status);

export class EdgeStreamableTransport implements Transport {
  sessionId?: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private initialized = false;
  private closed = false;
  /** The reply each unanswered request is to be answered on. */
  private readonly replies = new Map<RequestId, SseReply>();
  private standalone?: SseReply;

  /** `id`: the session id it hands out when initialized; `url`: where it is reached (the handlers may read it). */
  constructor(
    private readonly id: string,
    private readonly url: URL,
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }): Promise<void> {
    const answer = isAnswer(message);
    const requestId = answer ? (message as { id: RequestId }).id : options?.relatedRequestId;
    if (requestId === undefined) {
      if (answer) throw new Error('Cannot send a response on a standalone SSE stream unless resuming a previous client request');
      this.standalone?.write(message);
      return;
    }
    const reply = this.replies.get(requestId);
    if (!reply) throw new Error(`No connection established for request ID: ${String(requestId)}`);
    if (!answer) return reply.write(message);
    this.replies.delete(requestId);
    reply.answered(requestId, message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const reply of this.replies.values()) reply.end();
    this.replies.clear();
    this.standalone?.end();
    this.standalone = undefined;
    this.onclose?.();
  }

  /** A POST of JSON-RPC messages; `body` is undefined when it was not JSON. */
  post(headers: RequestHeaders, body: unknown): Reply {
    const accept = headers.accept;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
      return this.refuse(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    if (!isJsonContentType(headers['content-type'])) return this.refuse(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    if (body === undefined) return this.refuse(400, -32700, 'Parse error: Invalid JSON');
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) return this.refuse(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    const messages = parseMessages(body);
    if (!messages) return this.refuse(400, -32700, 'Parse error: Invalid JSON-RPC message');
    if (this.closed) return rpcError(404, -32001, 'Session not found');
    const initializing = messages.some((message) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message));
    if (initializing) {
      if (this.initialized) return this.refuse(400, -32600, 'Invalid Request: Server already initialized');
      if (messages.length > 1) return this.refuse(400, -32600, 'Invalid Request: Only one initialization request is allowed');
      this.sessionId = this.id;
      this.initialized = true;
    } else {
      const refused = this.checkSession(headers);
      if (refused) return refused;
    }
    const extra: MessageExtraInfo = { requestInfo: { headers: { ...headers }, url: this.url } };
    const ids = messages.filter(isRequest).map((message) => message.id);
    if (ids.length === 0) {
      for (const message of messages) this.onmessage?.(message, extra);
      return Reply.empty(202);
    }
    const reply = new SseReply(ids);
    for (const id of ids) this.replies.set(id, reply);
    for (const message of messages) this.onmessage?.(message, extra);
    return reply.reply(this.sessionHeader(), () => {});
  }

  /** The session's notification stream (one at a time). */
  get(headers: RequestHeaders): Reply {
    if (!headers.accept?.includes('text/event-stream')) return this.refuse(406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    const refused = this.checkSession(headers);
    if (refused) return refused;
    if (this.standalone) return this.refuse(409, -32000, 'Conflict: Only one SSE stream is allowed per session');
    const stream = new SseReply();
    this.standalone = stream;
    stream.comment(STREAM_OPEN);
    const gone = () => {
      if (this.standalone === stream) this.standalone = undefined;
    };
    return stream.reply(this.sessionHeader(), gone);
  }

  /** Ends the session at the client's word. */
  async delete(headers: RequestHeaders): Promise<Reply> {
    const refused = this.checkSession(headers);
    if (refused) return refused;
    await this.close();
    return Reply.empty(200);
  }

  /** The session id and protocol version a request after initialize must carry. */
  private checkSession(headers: RequestHeaders): Reply | undefined {
    if (!this.initialized) return this.refuse(400, -32000, 'Bad Request: Server not initialized');
    const sessionId = headers['mcp-session-id'];
    if (!sessionId) return this.refuse(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (sessionId !== this.sessionId) return this.refuse(404, -32001, 'Session not found');
    const version = headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return this.refuse(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
    }
    return undefined;
  }

  private sessionHeader(): Record<string, string> {
    return this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId };
  }

  /** An error answer, told to the server's error hook as the SDK's transport does. */
  private refuse(status: number, code: number, message: string): Reply {
    this.onerror?.(new Error(message));
    return rpcError(status, code, message);
  }
}

function parseMessages(body: unknown): JSONRPCMessage[] | undefined {
  const messages: JSONRPCMessage[] = [];
  for (const item of Array.isArray(body) ? body : [body]) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return undefined;
    messages.push(parsed.data);
  }
  return messages;
}

/** Validated messages: a request has a method and an id, an answer an id and no method. */
const isRequest = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } => 'method' in message && 'id' in message;

const isAnswer = (message: JSONRPCMessage) => !('method' in message) && 'id' in message;
