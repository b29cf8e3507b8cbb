/**
 * Carries encoded frames from a producer that cannot wait (engine events) to a sink that can (the socket).
 * A model's tokens arrive many to a network read, all handled in one turn of the event loop, and one write per
 * token costs a syscall each. So the first frames of a turn are written in the call that pushes them, before the
 * rest of that read is even parsed (a 64 KB read holds hundreds of tokens: holding the first one to the turn's end
 * put their whole cost in front of it); the turn's other frames go out together at its end, and frames pushed
 * while the socket is full together once it drains.
 */
import type { StreamSink } from './reply.js';

/**
 * Frames a turn writes at once: two, because a v1 stream announces the AI message in the same turn as its first
 * token, and the first token is what a reader waits for. The rest of a burst costs one more write, not one each.
 */
const AT_ONCE_PER_TURN = 2;

export class FramePipe {
  private queue: string[] = [];
  private sink?: StreamSink;
  /** The socket is full: frames queue until it drains. */
  private full = false;
  /** Frames this turn may still write at once; reset at the turn's end. */
  private atOnce = AT_ONCE_PER_TURN;
  private turnEndDue = false;
  private ended = false;
  private finish?: () => void;

  push(frame: string): void {
    if (this.ended) return;
    if (this.sink && !this.full && this.atOnce > 0 && this.queue.length === 0) {
      this.atOnce--;
      this.write(frame);
    } else this.queue.push(frame);
    this.dueTurnEnd();
  }

  /** No more frames after those already pushed. */
  end(): void {
    this.ended = true;
    this.dueTurnEnd();
  }

  /** Writes frames until the pipe has ended and everything pushed is written, or the client is gone. */
  drain(sink: StreamSink): Promise<void> {
    this.sink = sink;
    return new Promise<void>((resolve) => {
      this.finish = resolve;
      sink.onClientGone(() => this.close());
      this.flush();
    });
  }

  private flush(): void {
    const sink = this.sink;
    if (!sink || this.full) return;
    if (sink.closed) return this.close();
    if (this.queue.length > 0) {
      const batch = this.queue.length === 1 ? this.queue[0] : this.queue.join('');
      this.queue = [];
      this.write(batch);
      // A full socket flushes again once drained; otherwise an ended pipe is done now (nothing else would flush).
      if (this.full) return;
    }
    if (this.ended) this.close();
  }

  private write(chunk: string): void {
    if (this.sink!.write(chunk)) return;
    this.full = true;
    void this.sink!.drained().then(() => {
      this.full = false;
      this.flush();
    });
  }

  private close(): void {
    this.queue = [];
    this.ended = true;
    const finish = this.finish;
    this.finish = undefined;
    finish?.();
  }

  private dueTurnEnd(): void {
    if (this.turnEndDue) return;
    this.turnEndDue = true;
    setImmediate(endTurn, this);
  }

  /** The turn's end: its queued frames go out together, and the next turn may write at once again. */
  endTurn(): void {
    this.turnEndDue = false;
    this.atOnce = AT_ONCE_PER_TURN;
    this.flush();
  }
}

// One shared function for every pipe's turn end (setImmediate passes the pipe), not a bound closure per pipe.
const endTurn = (pipe: FramePipe) => pipe.endTurn();
