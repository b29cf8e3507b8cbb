/**
 * Carries encoded frames from a producer that cannot wait (engine events) to a sink that can (the socket).
 * A model's tokens arrive many to a network read, and one write per token costs a syscall each: the first frame
 * of a turn goes out at once (first-token latency), the rest of that turn's frames together at its end, and
 * frames queued while the socket is busy together once it drains.
 */
import type { StreamSink } from './reply.js';

export class FramePipe {
  private queue: string[] = [];
  private ended = false;
  private wake?: () => void;
  private scheduled = false;
  private readonly flush = () => {
    this.scheduled = false;
    this.wake?.();
  };

  push(frame: string): void {
    if (this.ended) return;
    this.queue.push(frame);
    this.schedule();
  }

  /** No more frames after those already queued. */
  end(): void {
    this.ended = true;
    this.schedule();
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

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.wake?.();
    setImmediate(this.flush);
  }
}
