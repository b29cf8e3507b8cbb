/**
 * MCP's legacy HTTP+SSE transport over our edge: an SDK `Transport` whose outgoing messages are SSE frames on the
 * client's GET stream (through a FramePipe: backpressure, batched writes) and whose incoming messages are the
 * client's POSTs to the endpoint the stream announced first. Messages are the SDK's schema; only the SSE framing
 * is ours, as the SDK's own SSE transport does it.
 */
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { FramePipe } from '../../edge/frame-pipe.js';
import type { StreamSink } from '../../edge/reply.js';

export class EdgeSseTransport implements Transport {
  /** Hex, like the session ids Langflow's (Python) SSE transport hands out. */
  readonly sessionId = randomUUID().replaceAll('-', '');
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private readonly pipe = new FramePipe();
  private closed = false;

  /** `messagesPath`: where the client posts its messages (Langflow's paths, with `session_id` appended). */
  constructor(private readonly messagesPath: string) {}

  async start(): Promise<void> {
    this.pipe.push(`event: endpoint\ndata: ${this.messagesPath}?session_id=${this.sessionId}\n\n`);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.pipe.push(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pipe.end();
    this.onclose?.();
  }

  /** Writes the stream to the client until the transport closes or the client goes away. */
  stream(sink: StreamSink): Promise<void> {
    return this.pipe.drain(sink);
  }

  /** A message the client posted; false when it is not a JSON-RPC message. */
  receive(body: unknown, headers: Record<string, string>): boolean {
    const parsed = JSONRPCMessageSchema.safeParse(body);
    if (!parsed.success || this.closed) return false;
    this.onmessage?.(parsed.data, { requestInfo: { headers } });
    return true;
  }
}
