/**
 * The service's recent log lines, kept in memory for /logs and /logs-stream (Langflow's log buffer): a fixed ring,
 * each line under a millisecond timestamp that is unique (bumped by one when two lines share a millisecond), since
 * the wire shape is an object keyed by timestamp. A pino destination: the logger writes each line here too.
 */

export type LogLines = Record<string, string>;
type Follower = (timestamp: number, line: string) => void;

export class LogRing {
  private readonly times: number[] = [];
  private readonly lines: string[] = [];
  /** Index of the oldest line once the ring is full. */
  private head = 0;
  private last = 0;
  private readonly followers = new Set<{ onLine: Follower; onEnd: () => void }>();

  constructor(readonly capacity: number) {}

  /** pino's destination interface: one serialised line per call. */
  write(chunk: string): void {
    const line = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
    const timestamp = (this.last = Math.max(Date.now(), this.last + 1));
    if (this.times.length < this.capacity) {
      this.times.push(timestamp);
      this.lines.push(line);
    } else {
      this.times[this.head] = timestamp;
      this.lines[this.head] = line;
      this.head = (this.head + 1) % this.capacity;
    }
    for (const follower of this.followers) follower.onLine(timestamp, line);
  }

  get size(): number {
    return this.times.length;
  }

  /** The last `count` lines. */
  lastLines(count: number): LogLines {
    return this.slice(Math.max(0, this.size - count), this.size);
  }

  /** Up to `count` lines just before `timestamp` (the last lines when none is that recent). */
  linesBefore(timestamp: number, count: number): LogLines {
    const first = this.firstAtOrAfter(timestamp);
    if (first === this.size) return this.lastLines(count);
    return this.slice(Math.max(0, first - count), first);
  }

  /** Up to `count` lines from `timestamp` on. */
  linesAfter(timestamp: number, count: number): LogLines {
    const first = this.firstAtOrAfter(timestamp);
    return this.slice(first, Math.min(this.size, first + count));
  }

  /** Calls `onLine` for each line written from now on, until the returned function is called or `endFollowers`. */
  follow(onLine: Follower, onEnd: () => void): () => void {
    const follower = { onLine, onEnd };
    this.followers.add(follower);
    return () => this.followers.delete(follower);
  }

  /** Ends every follower (a shutdown: an endless stream must not hold it up). */
  endFollowers(): void {
    for (const follower of this.followers) follower.onEnd();
    this.followers.clear();
  }

  /** Lines by age: 0 is the oldest kept. */
  private slice(from: number, to: number): LogLines {
    const out: LogLines = {};
    for (let age = from; age < to; age++) {
      const at = (this.head + age) % this.size;
      out[this.times[at]] = this.lines[at];
    }
    return out;
  }

  private firstAtOrAfter(timestamp: number): number {
    // Timestamps grow with age: a binary search over ages.
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.times[(this.head + mid) % this.size] < timestamp) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
