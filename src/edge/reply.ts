/** What a handler returns when a plain JSON 200 is not enough. */

export interface StreamSink {
  /** Hands the chunk to the socket; false when the socket is full (backpressure): wait for `drained()` first. */
  write(chunk: string | Uint8Array): boolean;
  /** Resolves once the socket can take more, or the client has gone (one waiter at a time). */
  drained(): Promise<void>;
  /** True once the client has gone or the stream was ended. */
  readonly closed: boolean;
  /**
   * Calls `listener` once when the client goes away, at once if it already has. Not an AbortSignal: one costs an
   * open stream ~0.7 KB (its own hidden class, two listener maps); a listener here, one closure.
   */
  onClientGone(listener: () => void): void;
}

export type ReplyBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'bytes'; data: string | Uint8Array }
  | { kind: 'empty' }
  | { kind: 'stream'; produce: (sink: StreamSink) => Promise<void> };

/** Header values; an array writes the header once per value (Set-Cookie). */
export type ReplyHeaders = Record<string, string | string[]>;

export class Reply {
  constructor(
    readonly status: number,
    readonly body: ReplyBody,
    readonly headers: ReplyHeaders = {},
  ) {}

  static json(value: unknown, status = 200, headers: ReplyHeaders = {}): Reply {
    return new Reply(status, { kind: 'json', value }, headers);
  }

  static bytes(data: string | Uint8Array, contentType: string, status = 200, headers: ReplyHeaders = {}): Reply {
    return new Reply(status, { kind: 'bytes', data }, { 'content-type': contentType, ...headers });
  }

  static empty(status = 204, headers: ReplyHeaders = {}): Reply {
    return new Reply(status, { kind: 'empty' }, headers);
  }

  /** A streamed reply; `produce` writes chunks and returns when the stream is complete. */
  static stream(contentType: string, produce: (sink: StreamSink) => Promise<void>, headers: ReplyHeaders = {}): Reply {
    return new Reply(200, { kind: 'stream', produce }, { 'content-type': contentType, 'cache-control': 'no-cache', ...headers });
  }
}
