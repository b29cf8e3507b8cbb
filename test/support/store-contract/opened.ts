/**
 * How the store contract gets its stores: `open` gives a store over fresh, empty data, closed by the contract when
 * the test ends; `reopen` gives a new store over the same data once the first one is closed (restarts).
 */
import type { Test } from 'tap';
import type { Store } from '../../../src/store/port.js';

export interface OpenedStore {
  store: Store;
  /** Closes the store; its data stays, for `reopen`. Called once per opened store. */
  close(): Promise<void>;
  /** A new store over the same data, after `close`. */
  reopen(): Promise<OpenedStore>;
}

export type OpenStore = () => Promise<OpenedStore>;

/** A fresh store for one test, closed when it ends (the one reopened last, after a `restart`). */
export async function freshStore(t: Test, open: OpenStore): Promise<{ store: Store; restart(): Promise<Store> }> {
  let current = await open();
  t.teardown(() => current.close());
  return {
    store: current.store,
    async restart() {
      await current.close();
      current = await current.reopen();
      return current.store;
    },
  };
}
