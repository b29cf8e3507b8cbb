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
    let sent: Promise<void>;
    try {
      sent = this.flush(batch.map((pending) => pending.item));
    } catch (error) {
      sent = Promise.reject(error as Error);
    }
    const settled = sent.then(
      () => batch.forEach((pending) => pending.resolve()),
      (error: unknown) => batch.forEach((pending) => pending.reject(error as Error)),
    );
    this.#inFlight.add(settled);
    void settled.finally(() => this.#inFlight.delete(settled));
  }
}

/** The last of each id's writes in a batch (an upsert may not touch one row twice in a statement). */
export function lastPerId<T extends { id: string }>(items: T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}
