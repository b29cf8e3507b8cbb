/**
 * What the database refuses or drops does not spread: a write refused inside a shared batch fails alone, and
 * connections cut by the server (a restart, an administrator) are replaced without the process failing.
 */
import t from 'tap';
import { openPgStore } from '../src/store/pg/pg-store.js';
import * as record from '../test/support/store-contract/records.js';
import { admin, cutConnectionsNow, freshDatabase, freshSchema, TEST_DATABASE_URL } from './support/postgres.js';

t.test('a message the database refuses fails alone; the others of its batch are stored', async (t) => {
  const store = await openPgStore({ url: TEST_DATABASE_URL, schema: freshSchema(t) });
  t.teardown(() => store.close());
  // PostgreSQL text cannot hold NUL, which LMDB keys can: the one write the database refuses.
  const [before, refused, after] = [record.message('f1', 's1', 1), record.message('f1', 'bad\u0000session', 2), record.message('f1', 's1', 3)];
  const results = await Promise.allSettled([before, refused, after].map((m) => store.messages.put(m)));
  t.same(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled'], 'only the refused write fails');
  t.same((await store.messages.session('f1', 's1', {})).map((m) => m.id), [before.id, after.id], 'the rest of its batch is stored');
});

t.test('connections the server cuts are replaced: the store works on', async (t) => {
  const url = await freshDatabase(t);
  const cut: Error[] = [];
  // Every connection cut reports: the pool's four and the instance lock's own. Known once the server says how many.
  let expected = Infinity;
  let onCut = () => {};
  const allCut = new Promise<void>((resolve) => (onCut = () => cut.length >= expected && resolve()));
  const store = await openPgStore({ url, poolSize: 4, onIdleError: (error) => (cut.push(error), onCut()) });
  t.teardown(() => store.close());
  // Four connections open and idle in the pool.
  await Promise.all(Array.from({ length: 4 }, (_, i) => store.messages.session('f1', `warm-${i}`, {})));
  const database = new URL(url).pathname.slice(1);
  const terminated = await admin<{ pid: number }>(
    'SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  t.ok(terminated.length >= 5, 'the server cut every connection the store held (the pool and the instance lock)');
  expected = terminated.length;
  onCut();
  await allCut;
  t.ok(cut.every((error) => error instanceof Error), 'each cut was reported, not thrown');
  await t.resolves(store.ping(), 'the store reads and writes again on new connections');
  await store.settings.put('after', 'the cut');
  t.equal(await store.settings.get('after'), 'the cut');
});

t.test('connections cut while idle, before the pool noticed: reads go out again, a write answers unavailable', async (t) => {
  const url = await freshDatabase(t);
  const database = new URL(url).pathname.slice(1);
  const store = await openPgStore({ url, poolSize: 4, onIdleError: () => undefined });
  t.teardown(() => store.close());
  await store.settings.put('kept', 'before the cut');
  await Promise.all(Array.from({ length: 4 }, (_, i) => store.messages.session('f1', `warm-${i}`, {})));

  t.ok(cutConnectionsNow(database) >= 5, 'the server cut the pool and the instance lock');
  const reads = await Promise.all(Array.from({ length: 4 }, () => store.settings.get('kept')));
  t.same(reads, Array(4).fill('before the cut'), 'four reads handed dead connections each went out again and answered');

  await store.settings.get('kept'); // the pool holds live connections again
  cutConnectionsNow(database);
  // Both handed a dead connection in the same turn, before the pool can read of the cut.
  const write = store.settings.put('maybe', 'written');
  const inserted = store.projects.insert(record.project('u1', { name: 'after the cut' }));
  await t.rejects(write, { name: 'DatabaseUnavailableError', kind: 'unavailable' }, 'a write whose connection died is not sent twice: unavailable, try again');
  t.equal((await inserted).name, 'after the cut', 'a transaction whose BEGIN met a dead connection began again on a new one');
  t.equal((await store.projects.get((await inserted).id))?.name, 'after the cut', 'and was committed');
});

t.test('a query while the database cannot be reached fails as unavailable (503), not as an internal error', async (t) => {
  const url = await freshDatabase(t);
  const store = await openPgStore({ url, poolSize: 2, onIdleError: () => undefined });
  t.teardown(() => store.close().catch(() => undefined));
  await store.settings.put('kept', 'before');
  await admin(`DROP DATABASE ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  await t.rejects(store.settings.get('kept'), { name: 'DatabaseUnavailableError', kind: 'unavailable' }, 'a read');
  await t.rejects(store.settings.put('kept', 'after'), { name: 'DatabaseUnavailableError', kind: 'unavailable' }, 'a write');
  await t.rejects(store.projects.insert(record.project('u1')), { name: 'DatabaseUnavailableError', kind: 'unavailable' }, 'a transaction');
});
