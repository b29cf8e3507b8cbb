/**
 * A stateless Streamable HTTP request through the SDK's web-standard transport: our exchange as the web Request
 * it reads, its web Response as our Reply (an SSE body streamed with backpressure).
 */
import { Reply, type ReplyHeaders, type StreamSink } from '../../edge/reply.js';
import type { RouteRequest } from '../../edge/route.js';
import type { ReplyHooks } from './reply-hooks.js';

/**
 * The exchange as the transport reads a web Request: its method, its URL (only the path is read, so the host is
 * fixed and a client's Host header cannot make it invalid) and its headers (`get`, `entries`). A real Request
 * copies the headers and makes an AbortSignal and a body stream per call, none of which the transport uses when
 * handed the parsed body; it is built only when the transport must read the body itself (one we could not parse,
 * to answer its own parse error).
 */
export function webRequest(method: string, request: Pick<RouteRequest<unknown, unknown, Buffer>, 'body' | 'headers'>, path: string, withBody: boolean): Request {
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

export async function toReply(response: Response, hooks: ReplyHooks): Promise<Reply> {
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
  const produce = (sink: StreamSink) => pump(body, sink, hooks);
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
