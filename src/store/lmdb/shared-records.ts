/**
 * Decoded records kept for a repo's `getShared`: callers only read them, so one decoded copy serves every request
 * instead of a decode per read. Bounded (the oldest kept goes first). A write drops the records it touches when it
 * is issued and again once committed: a read between the two sees the previous commit and may keep that record.
 */
export class SharedRecords<T> {
  readonly #records = new Map<string, T>();

  constructor(
    private readonly max: number,
    private readonly read: (id: string) => T | undefined,
  ) {}

  get(id: string): T | undefined {
    let record = this.#records.get(id);
    if (record) return record;
    record = this.read(id);
    if (record) {
      if (this.#records.size >= this.max) this.#records.delete(this.#records.keys().next().value!);
      this.#records.set(id, record);
    }
    return record;
  }

  /** `write` as given, with the records of `ids` dropped now and once it settles. */
  written<R>(ids: Iterable<string>, write: Promise<R>): Promise<R> {
    const touched = [...ids];
    for (const id of touched) this.#records.delete(id);
    return write.finally(() => {
      for (const id of touched) this.#records.delete(id);
    });
  }
}
