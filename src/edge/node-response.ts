/**
 * uWS's response methods over node:http's request and response, the ones the edge uses (EdgeResponse): the same
 * dispatch, replies and streams run over either server. Node buffers what the socket cannot take yet, so a large
 * body ends in one call; a stream still waits for 'drain' when write() says the socket is full.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EdgeResponse } from './exchange.js';
import type { Traffic } from './traffic.js';

const NO_BYTES = new ArrayBuffer(0);

export class NodeResponse implements EdgeResponse {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    /** While the server drains, every answer closes its connection once it is flushed. */
    private readonly traffic: Traffic,
  ) {}

  cork(cb: () => void): this {
    cb();
    return this;
  }

  writeStatus(line: string): this {
    const space = line.indexOf(' ');
    this.res.statusCode = Number(space === -1 ? line : line.slice(0, space));
    if (space !== -1) this.res.statusMessage = line.slice(space + 1);
    return this;
  }

  writeHeader(key: string, value: string): this {
    // Repeated headers (Set-Cookie) are each written, as uWS does.
    this.res.appendHeader(key, value);
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    return this.res.write(chunk);
  }

  end(body?: string | Uint8Array, closeConnection?: boolean): this {
    this.finish(closeConnection, body);
    return this;
  }

  endWithoutBody(reportedContentLength?: number, closeConnection?: boolean): this {
    if (reportedContentLength !== undefined && !this.res.headersSent) this.res.setHeader('content-length', reportedContentLength);
    this.finish(closeConnection);
    return this;
  }

  tryEnd(body: Uint8Array, totalSize: number): [boolean, boolean] {
    if (!this.res.headersSent) this.res.setHeader('content-length', totalSize);
    this.finish(false, body);
    return [true, true];
  }

  private finish(closeConnection: boolean | undefined, body?: string | Uint8Array): void {
    if (closeConnection || this.traffic.draining) this.res.shouldKeepAlive = false;
    this.res.end(body);
  }

  getWriteOffset(): number {
    return 0;
  }

  onWritable(handler: (offset: number) => boolean): this {
    this.res.once('drain', () => handler(0));
    return this;
  }

  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): this {
    // A Buffer serves where uWS hands an ArrayBuffer: the edge reads byteLength and copies it with slice().
    this.req.on('data', (chunk: Buffer) => handler(chunk as unknown as ArrayBuffer, false));
    this.req.on('end', () => handler(NO_BYTES, true));
    return this;
  }

  pause(): this {
    this.req.pause();
    return this;
  }

  resume(): this {
    this.req.resume();
    return this;
  }

  onAborted(handler: () => void): this {
    // 'close' also follows a finished reply: only a reply not yet ended was cut off by its client.
    this.res.on('close', () => {
      if (!this.res.writableEnded) handler();
    });
    return this;
  }

  getRemoteAddressAsText(): ArrayBuffer {
    const text = Buffer.from(this.req.socket.remoteAddress ?? '');
    return text.buffer.slice(text.byteOffset, text.byteOffset + text.byteLength) as ArrayBuffer;
  }
}

