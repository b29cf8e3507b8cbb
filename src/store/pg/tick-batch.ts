/**
 * Writes issued in the same turn of the event loop, sent to PostgreSQL together: one statement (or one transaction)
 * per batch instead of one round trip and one commit each, as LMDB shares one commit among the puts of a moment.
 * Batches are not serialised: one may be in flight on each pooled connection while the next one gathers.
 *
 * Two batches in flight on two connections commit in either order. Where the order of writes matters (a session's
 * appends, the puts of one record), `keyOf` names what must stay in order: a write whose key has a batch in flight
 * waits, and goes with the next batch sent after that one settles, together with whatever else gathered meanwhile.
 */

/** Writes per batch at most (a statement's size stays bounded under a burst). */
const BATCH_MAX = 500;

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class TickBatch<T> {
  /** Added since the last send. */
  #pending: Pending<T>[] = [];
  /** Held back: their key had a batch in flight (or the batch before was full). Older than anything pending. */
  #held: Pending<T>[] = [];
  #scheduled = false;
  readonly #busyKeys = new Set<string>();
  readonly #inFlight = new Set<Promise<void>>();

  /** `flush` writes one batch, in the order the items were added; every item's promise settles with it. */
  constructor(
    private readonly flush: (items: T[]) => Promise<void>,
    private readonly keyOf?: (item: T) => string,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#send();
        });
      }
      this.#pending.push({ item, resolve, reject });
      if (this.#pending.length >= BATCH_MAX) this.#send();
    });
  }

  /** Resolves once every write added so far is settled (before the pool closes). */
  async drain(): Promise<void> {
    this.#send();
    while (this.#inFlight.size > 0 || this.#held.length > 0) {
      await Promise.allSettled([...this.#inFlight]);
      this.#send();
    }
  }

  #send(): void {
    const { batch, keys } = this.#take();
    if (batch.length === 0) return;
    const settled = this.#write(batch).then(
      () => batch.forEach((pending) => pending.resolve()),
      // One write the database refuses (a NUL in a key, say) fails its batch: each is then tried alone, so only
      // that write's caller hears of it. One after the other, in the batch's order (a session's appends keep theirs).
      async (error: unknown) => {
        if (batch.length === 1) batch[0].reject(error as Error);
        else for (const one of batch) await this.#alone(one);
      },
    );
    this.#inFlight.add(settled);
    void settled.finally(() => {
      this.#inFlight.delete(settled);
      keys.forEach((key) => this.#busyKeys.delete(key));
      if (this.#held.length > 0) this.#send();
    });
  }

  /** The next batch: what was held and what is pending, in order, but for writes whose key is still in flight. */
  #take(): { batch: Pending<T>[]; keys: Set<string> } {
    const keys = new Set<string>();
    if (!this.keyOf) {
      const batch = this.#pending;
      this.#pending = [];
      return { batch, keys };
    }
    const batch: Pending<T>[] = [];
    const held: Pending<T>[] = [];
    const blocked = new Set(this.#busyKeys);
    for (const pending of [...this.#held, ...this.#pending]) {
      const key = this.keyOf(pending.item);
      if (blocked.has(key) || batch.length >= BATCH_MAX) {
        // Later writes of this key stay behind it.
        blocked.add(key);
        held.push(pending);
      } else {
        batch.push(pending);
        keys.add(key);
      }
    }
    this.#held = held;
    this.#pending = [];
    keys.forEach((key) => this.#busyKeys.add(key));
    return { batch, keys };
  }

  #write(batch: Pending<T>[]): Promise<void> {
    try {
      return this.flush(batch.map((pending) => pending.item));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  #alone(pending: Pending<T>): Promise<void> {
    return this.#write([pending]).then(pending.resolve, pending.reject);
  }
}

/** The last of each id's writes in a batch (an upsert may not touch one row twice in a statement). */
export function lastPerId<T extends { id: string }>(items: T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}

/** For `keyOf`: a record's puts go in the order they were made (a later one is never overwritten by an earlier). */
export const byId = (item: { id: string }): string => item.id;
