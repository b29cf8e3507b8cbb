/**
 * Writes issued in the same turn of the event loop, sent to PostgreSQL together: one statement (or one transaction)
 * per batch instead of one round trip and one commit each, as LMDB shares one commit among the puts of a moment.
 * Batches are not serialised: one may be in flight on each pooled connection while the next one gathers.
 */

/** Writes per batch at most (a statement's size stays bounded under a burst). */
const BATCH_MAX = 500;

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class TickBatch<T> {
  #pending: Pending<T>[] = [];
  readonly #inFlight = new Set<Promise<void>>();

  /** `flush` writes one batch, in the order the items were added; every item's promise settles with it. */
  constructor(private readonly flush: (items: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => this.#send());
      this.#pending.push({ item, resolve, reject });
      if (this.#pending.length >= BATCH_MAX) this.#send();
    });
  }

  /** Resolves once every write added so far is settled (before the pool closes). */
  async drain(): Promise<void> {
    this.#send();
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #send(): void {
    const batch = this.#pending;
    if (batch.length === 0) return;
    this.#pending = [];
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
    void settled.finally(() => this.#inFlight.delete(settled));
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
