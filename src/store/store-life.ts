/**
 * A store's `ping` and `close`, the same for every implementation: a check reads and writes for real, and refuses
 * once the store is closed; `close` runs once.
 */
import type { Store } from './port.js';

/** `probe` writes a value and reads it back (throws on a mismatch); `shut` releases the store, called once. */
export function storeLife(probe: () => Promise<void>, shut: () => Promise<void>): Pick<Store, 'ping' | 'close'> {
  let closed = false;
  let pinging: Promise<void> | undefined;
  return {
    ping() {
      if (closed) return Promise.reject(new Error('store is closed'));
      // Concurrent checks share one probe: each writing its own value to the one key made a check that read back
      // another's value report the store broken (a false alarm that restarts healthy pods), and a write per
      // caller made a burst of checks a burst of commits.
      pinging ??= probe().finally(() => (pinging = undefined));
      return pinging;
    },
    async close() {
      if (closed) return;
      closed = true;
      await shut();
    },
  };
}
