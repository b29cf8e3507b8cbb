/** Files going out: a stored file's bytes streamed to the client as the socket takes them, under their name. */
import type { Readable } from 'node:stream';
import type { StreamSink } from '../../edge/reply.js';

/** Content-Disposition for a download: an ASCII fallback, and the name itself encoded (RFC 6266, RFC 5987). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Copies `bytes` to the sink, waiting whenever the socket is full; a client that leaves stops the read. */
export async function pipeToSink(bytes: Readable, sink: StreamSink): Promise<void> {
  sink.onClientGone(() => bytes.destroy());
  try {
    for await (const chunk of bytes) {
      if (sink.closed) break;
      if (!sink.write(chunk as Buffer)) await sink.drained();
    }
  } finally {
    bytes.destroy();
  }
}
