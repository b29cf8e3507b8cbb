/**
 * A dependency imported on first use instead of at start-up. The AI SDK and arquero alone cost ~250 ms of
 * imports and ~24 MB resident; loading them lazily keeps start-up to listening short, and the service loads them
 * in the background only for stored flows that need them (src/services/module-warm-up.ts), so a first run rarely
 * waits.
 */
export interface LazyModule<M> {
  load(): Promise<M>;
  /** The module once `load()` has resolved; throws before (a bug: callers load first). */
  get(): M;
  /** The module if already loaded, else undefined. */
  peek(): M | undefined;
}

export function lazyModule<M>(name: string, importer: () => Promise<M>): LazyModule<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  return {
    load: () => (loading ??= importer().then((module) => (loaded = module))),
    get() {
      if (loaded === undefined) throw new Error(`${name} used before it was loaded`);
      return loaded;
    },
    peek: () => loaded,
  };
}
