/**
 * The timeouts of running runs, with one timer for all of them. Every run gets the same time, so deadlines come in
 * the order runs start: a Map in insertion order is the queue, and the one timer is armed for its head. A timer per
 * run cost each run a Timeout object and two calls into the timer lists, a visible share of an echo run's garbage.
 * Keyed by the run's id in a ReleasingMap (an entry added and one deleted per run): a Map keyed by the run itself
 * had V8's old tables keep ended runs alive (src/collections/releasing-map.ts).
 */
import { ReleasingMap } from '../collections/releasing-map.js';

interface Due<T> {
  item: T;
  at: number;
}

export class Deadlines<T> {
  private readonly due = new ReleasingMap<string, Due<T>>();
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (epoch ms). */
  private armedFor = Infinity;

  constructor(
    private readonly ms: number,
    private readonly onExpired: (item: T) => void,
  ) {}

  add(id: string, item: T): void {
    const at = Date.now() + this.ms;
    this.due.set(id, { item, at });
    if (this.due.size === 1) this.arm(at);
  }

  /** Forgets an item that ended in time; the timer stays armed and re-arms for the new head when it fires. */
  remove(id: string): void {
    this.due.delete(id);
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due.clear();
  }

  private arm(at: number): void {
    if (this.timer && at >= this.armedFor) return;
    clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now()));
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = Date.now();
    for (const [id, { item, at }] of this.due.entries()) {
      if (at > now) return this.arm(at);
      this.due.delete(id);
      this.onExpired(item);
    }
  }
}
