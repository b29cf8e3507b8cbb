/**
 * A Map for entries that come and go once per run, which lets go of each value as it is deleted. When a Map's table
 * fills with deleted entries V8 copies the live ones to a new table and keeps the old one, unchanged, for iterators
 * that may still read it. Once such a table is in the old generation (after any full GC), nothing clears it until
 * the next full GC, and young-generation GCs keep alive everything it holds, the next table included: every run
 * still in the Map when a table was replaced survived to the old generation with its whole object graph. Here the
 * tables hold a small box per entry, emptied on delete, so they keep the boxes and not the runs.
 */
interface Box<V> {
  value: V | undefined;
}

export class ReleasingMap<K, V> {
  private readonly boxes = new Map<K, Box<V>>();

  get size(): number {
    return this.boxes.size;
  }

  has(key: K): boolean {
    return this.boxes.has(key);
  }

  get(key: K): V | undefined {
    return this.boxes.get(key)?.value;
  }

  set(key: K, value: V): void {
    const box = this.boxes.get(key);
    if (box) box.value = value;
    else this.boxes.set(key, { value });
  }

  /** Removes the entry and returns its value (undefined: there was none). */
  delete(key: K): V | undefined {
    const box = this.boxes.get(key);
    if (!box) return undefined;
    this.boxes.delete(key);
    const { value } = box;
    box.value = undefined;
    return value;
  }

  /** The entries in insertion order (a live view, as a Map's: deleting while iterating is safe). */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, box] of this.boxes) if (box.value !== undefined) yield [key, box.value];
  }

  *values(): IterableIterator<V> {
    for (const box of this.boxes.values()) if (box.value !== undefined) yield box.value;
  }

  clear(): void {
    for (const box of this.boxes.values()) box.value = undefined;
    this.boxes.clear();
  }
}
