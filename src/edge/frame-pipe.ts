/**
 * Carries encoded frames from a producer that cannot wait (engine events) to a sink that can (the socket).
 * Frames queued while the socket is busy go out together in one write, which keeps syscalls per token low.
 */
import type { StreamSink } from './reply.js';

export class FramePipe {
  private queue: string[] = [];
  private ended = false;
  private wake?: () => void;

  push(frame: string): void {
    if (this.ended) return;
    this.queue.push(frame);
    this.wake?.();
  }

  /** No more frames after those already queued. */
  end(): void {
    this.ended = true;
    this.wake?.();
  }

  /** Writes frames until the pipe has ended and is empty, or the client is gone. */
  async drain(sink: StreamSink): Promise<void> {
    const onAbort = () => this.wake?.();
    sink.signal.addEventListener('abort', onAbort, { once: true });
    try {
      while (!sink.closed) {
        if (this.queue.length === 0) {
          if (this.ended) return;
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = undefined;
          continue;
        }
        const batch = this.queue.length === 1 ? this.queue[0] : this.queue.join('');
        this.queue = [];
        await sink.write(batch);
      }
    } finally {
      sink.signal.removeEventListener('abort', onAbort);
    }
  }
}
