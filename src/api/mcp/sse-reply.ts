/**
 * One SSE reply of a Streamable HTTP session: a POST's reply (its requests' answers and the notifications about
 * them) or the session's GET notification stream. Frames go through a FramePipe (backpressure, batched writes);
 * a keep-alive comment every 15 s, as the SDK's transport sends, keeps proxies from cutting a quiet stream.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { FramePipe } from '../../edge/frame-pipe.js';
import { Reply, type ReplyHeaders, type StreamSink } from '../../edge/reply.js';

const KEEP_ALIVE_MS = 15_000;
const KEEP_ALIVE = ': keepalive\n\n';

export class SseReply {
  private readonly pipe = new FramePipe();
  private readonly keepAlive: NodeJS.Timeout;
  /** A POST's requests not answered yet: the reply ends with the last answer. */
  private readonly pending = new Set<RequestId>();

  constructor(requestIds: readonly RequestId[] = []) {
    for (const id of requestIds) this.pending.add(id);
    this.keepAlive = setInterval(pushKeepAlive, KEEP_ALIVE_MS, this.pipe).unref();
  }

  write(message: JSONRPCMessage): void {
    this.pipe.push(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** A comment before any event (a GET stream's head would otherwise wait for its first notification). */
  comment(text: string): void {
    this.pipe.push(text);
  }

  /** Writes the answer to `id`; true when it was the reply's last, and the reply has ended. */
  answered(id: RequestId, message: JSONRPCMessage): boolean {
    this.write(message);
    this.pending.delete(id);
    if (this.pending.size > 0) return false;
    this.end();
    return true;
  }

  end(): void {
    clearInterval(this.keepAlive);
    this.pipe.end();
  }

  /** The reply, with the SDK transport's headers; `gone` runs when the client leaves before the end. */
  reply(headers: ReplyHeaders, gone: () => void): Reply {
    const produce = (sink: StreamSink) => {
      sink.onClientGone(() => {
        this.end();
        gone();
      });
      return this.pipe.drain(sink);
    };
    return new Reply(200, { kind: 'stream', produce }, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', ...headers });
  }
}

// One shared function for every reply's keep-alive (setInterval passes the pipe), not a closure per reply.
const pushKeepAlive = (pipe: FramePipe) => pipe.push(KEEP_ALIVE);
