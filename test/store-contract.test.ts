/** The storage port's contract (test/support/store-contract.ts) against the LMDB store, each test in a fresh directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import { storeContract, type OpenedStore } from './support/store-contract.js';

function lmdbIn(dir: string): OpenedStore {
  const store = openLmdbStore(dir);
  return { store, close: () => store.close(), reopen: async () => lmdbIn(dir) };
}

const dirs: string[] = [];
t.teardown(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

storeContract(t, 'lmdb', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-store-contract-'));
  dirs.push(dir);
  return lmdbIn(dir);
});
