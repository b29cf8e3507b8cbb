/** The storage port's contract (test/support/store-contract.ts) against the PostgreSQL store, each test in its own schema. */
import t from 'tap';
import { openPgStore } from '../src/store/pg/pg-store.js';
import { storeContract, type OpenedStore } from '../test/support/store-contract.js';
import { freshSchema, TEST_DATABASE_URL } from './support/postgres.js';

async function pgIn(schema: string): Promise<OpenedStore> {
  const store = await openPgStore({ url: TEST_DATABASE_URL, schema });
  return { store, close: () => store.close(), reopen: () => pgIn(schema) };
}

storeContract(t, 'postgresql', () => pgIn(freshSchema(t)));
