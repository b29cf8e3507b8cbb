/**
 * Appends to one chat session from several instances at once: every message is kept, each under a sequence number
 * of its own, and each writer's messages keep their order, even when the writers' numbers collide (their clocks
 * agree to the microsecond, or disagree).
 */
import t, { type Test } from 'tap';
import { openPgStore } from '../src/store/pg/pg-store.js';
import type { Store } from '../src/store/port.js';
import { message } from '../test/support/store-contract/records.js';
import { freshSchema, TEST_DATABASE_URL } from './support/postgres.js';

const WRITERS = 3;
const PER_WRITER = 40;

async function instances(t: Test, count: number): Promise<Store[]> {
  const schema = freshSchema(t);
  const stores = await Promise.all(Array.from({ length: count }, () => openPgStore({ url: TEST_DATABASE_URL, schema })));
  t.teardown(() => Promise.all(stores.map((store) => store.close())));
  return stores;
}

t.test('three instances appending to one session at once, with colliding numbers', async (t) => {
  const stores = await instances(t, WRITERS);
  // Each writer numbers its messages 1..n, as three processes whose clocks read the same would.
  const written = stores.map((store, writer) =>
    Array.from({ length: PER_WRITER }, (_, i) => message('f1', 's1', i + 1, { text: `w${writer}-${i}` })),
  );
  await Promise.all(
    stores.map(async (store, writer) => {
      // In turns of a few: the batches of different writers interleave in the database.
      for (let i = 0; i < PER_WRITER; i += 4) await Promise.all(written[writer].slice(i, i + 4).map((m) => store.messages.put(m)));
    }),
  );
  const history = await stores[1].messages.session('f1', 's1', {});
  t.equal(history.length, WRITERS * PER_WRITER, 'every message is kept');
  t.equal(new Set(history.map((m) => m.seq)).size, history.length, 'each under a sequence number of its own');
  t.same(history.map((m) => m.seq), [...history.map((m) => m.seq)].sort((a, b) => a - b), 'read back in that order');
  for (let writer = 0; writer < WRITERS; writer++) {
    const own = history.filter((m) => m.text.startsWith(`w${writer}-`)).map((m) => m.text);
    t.same(own, written[writer].map((m) => m.text), `writer ${writer}'s messages keep their order`);
  }
  const fetched = await stores[2].messages.get(history[history.length - 1].id);
  t.equal(fetched?.seq, history[history.length - 1].seq, 'a message read by id carries the number the store took');
});

t.test("one writer's increasing numbers are kept as given; an edit keeps its place", async (t) => {
  const [store] = await instances(t, 1);
  const seqs = [1_000_001, 1_000_005, 1_000_009];
  const written = seqs.map((seq) => message('f1', 's1', seq));
  for (const m of written) await store.messages.put(m);
  t.same((await store.messages.session('f1', 's1', {})).map((m) => m.seq), seqs, 'the numbers as given');
  await store.messages.put({ ...written[0], text: 'edited', edit: true });
  const history = await store.messages.session('f1', 's1', {});
  t.same(history.map((m) => m.text), ['edited', written[1].text, written[2].text], 'the edit replaced the first message in place');
});

t.test("every change to a session is counted, whichever instance made it; other sessions' counts stay", async (t) => {
  const [a, b] = await instances(t, 2);
  t.equal(await a.messages.changes!('f1', 's1'), 0, 'a session never written: zero');
  const [first, second] = [message('f1', 's1', 1), message('f1', 's1', 2)];
  await Promise.all([a.messages.put(first), b.messages.put(second), a.messages.put(message('f1', 's2', 3))]);
  t.equal(await b.messages.changes!('f1', 's1'), 2, 'two appends from two instances');
  await b.messages.put({ ...first, text: 'edited', edit: true });
  t.equal(await a.messages.changes!('f1', 's1'), 3, 'an edit');
  await a.messages.delete(second);
  t.equal(await b.messages.changes!('f1', 's1'), 4, 'a delete');
  await a.messages.put({ ...first, session_id: 's2' });
  t.equal(await a.messages.changes!('f1', 's1'), 5, 'a message moved to another session counts for the one it left');
  t.equal(await a.messages.changes!('f1', 's2'), 2, 'and for the one it joined');
  await a.messages.delete(first);
  await a.messages.delete(message('f1', 's1', 9));
  t.equal(await a.messages.changes!('f1', 's2'), 3, 'deleting the last message leaves the count: it never goes back');
  t.equal(await a.messages.changes!('f1', 's1'), 5, 'a delete of a message never stored counts nothing');
});

t.test("a writer's appends to a session keep their order though the batches holding them are in flight at once", async (t) => {
  const [store] = await instances(t, 1);
  const misordered: string[] = [];
  for (let round = 0; round < 10; round++) {
    // As session actors write: the question goes in a batch with many other sessions' appends (sorted before it, so
    // its session is locked last), and the answer follows a turn of the event loop later, alone, on another
    // pooled connection, before the first batch has committed.
    const session = `z${round}`;
    const others = Array.from({ length: 300 }, (_, i) => store.messages.put(message('f1', `a${round}-${i}`, 1)));
    const asked = store.messages.put(message('f1', session, 1, { text: 'question' }));
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([...others, asked, store.messages.put(message('f1', session, 2, { text: 'answer' }))]);
    const texts = (await store.messages.session('f1', session, {})).map((m) => m.text);
    if (texts.join() !== 'question,answer') misordered.push(`${session}: ${texts.join()}`);
  }
  t.same(misordered, [], 'every question before its answer');
});
