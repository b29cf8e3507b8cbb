/**
 * The session actor over a store whose reads take their time: nothing is answered before the actor has its history,
 * the ops asked meanwhile keep their order, a store whose id must be looked up holds back the ops after it, and the
 * common store (no id of its own) reads nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { ActorHost } from '../actors/actor-host.js';
import { toRecord } from '../src/engine/message-records.js';
import { createLogger } from '../src/logger.js';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import type { MessageRepo } from '../src/store/port.js';
import { createMessage } from '../src/values/message.js';

/** The LMDB message repo, its reads counted and, for the kinds named, held until released. */
function slowReads(t: Test, hold: ('session' | 'get')[]) {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-session-'));
  const store = openLmdbStore(dir);
  const host = new ActorHost(slowRepo(), createLogger('silent'));
  const commits: Promise<void>[] = [];
  t.teardown(async () => {
    host.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const reads = { session: 0, get: 0 };
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = (kind: 'session' | 'get') => (hold.includes(kind) ? released : Promise.resolve());

  function slowRepo(): MessageRepo {
    const repo = store.messages;
    return {
      ...repo,
      session: async (...args) => {
        reads.session++;
        await held('session');
        return repo.session(...args);
      },
      get: async (id) => {
        reads.get++;
        await held('get');
        return repo.get(id);
      },
    };
  }
  /** The stored history, once every acknowledged store is committed. */
  const history = async () => {
    await Promise.all(commits);
    return (await store.messages.session('flow', 's', {})).map((m) => m.text);
  };
  return { repo: store.messages, memory: host.sessions.memoryFor('flow', (committed) => commits.push(committed)), reads, release, history };
}

const message = (text: string, id?: string) => createMessage({ text, session_id: 's', ...(id ? { id } : {}) });
/** A record of the flow's history as an earlier actor would have stored it. */
const record = (text: string, id: string, sessionId: string, seq: number) => toRecord(createMessage({ text, session_id: sessionId, flow_id: 'flow' }), id, sessionId, seq);
const texts = (messages: { text: string }[]) => messages.map((m) => m.text);

/** Whether each promise has settled yet. */
function watch(promises: Promise<unknown>[]): boolean[] {
  const settled = promises.map(() => false);
  const mark = (i: number) => () => {
    settled[i] = true;
  };
  promises.forEach((p, i) => void p.then(mark(i), mark(i)));
  return settled;
}

t.test('a new session actor answers nothing before its history is read; what was asked meanwhile follows it in order', async (t) => {
  const { repo, memory, reads, release, history } = slowReads(t, ['session']);
  await repo.put(record('old 1', 'old-1', 's', 1));
  await repo.put(record('old 2', 'old-2', 's', 2));
  const first = memory.store(message('a'));
  const recent = memory.recent({ sessionId: 's', limit: 10, order: 'ASC' });
  const second = memory.store(message('b'));
  const settled = watch([first, recent, second]);
  t.equal(reads.session, 1, 'the actor started by reading its history');
  for (let i = 0; i < 10; i++) await turn();
  t.same(settled, [false, false, false], 'and answers nothing while the read is out');
  release();
  t.same(texts(await recent), ['old 1', 'old 2', 'a'], 'then the history, with the store asked before the read');
  await Promise.all([first, second]);
  t.same(await history(), ['old 1', 'old 2', 'a', 'b'], 'stored after the history, in the order asked');
});

t.test('a given id is looked up only when the cache does not hold it; the ops after it wait for the answer', async (t) => {
  const { repo, memory, reads, release, history } = slowReads(t, ['get']);
  await repo.put(record('elsewhere', 'taken', 'other', 1));
  await memory.store(message('plain'));
  t.equal(reads.get, 0, 'a message without an id of its own reads nothing');

  // Once the actor is idle, the lead goes alone and keeps it busy, so the two after it go as one batch.
  await turn();
  const lead = memory.store(message('lead'));
  const clashing = memory.store(message('clashing', 'taken'));
  const after = memory.store(message('after'));
  const settled = watch([lead, clashing, after]);
  for (let i = 0; i < 10; i++) await turn();
  t.same(settled, [true, false, false], 'a store waits for its lookup, and so does the op after it in its batch');
  release();
  const [kept, next] = await Promise.all([clashing, after]);
  t.not(kept.id, 'taken', 'an id the store already holds is replaced');
  t.not(next.id, kept.id, 'the next message has an id of its own');
  t.equal(reads.get, 1, 'it was looked up once');

  const fresh = await memory.store(message('fresh', 'given-id'));
  t.equal(fresh.id, 'given-id', 'an id nobody holds is kept');
  const again = await memory.store(message('again', 'given-id'));
  t.not(again.id, 'given-id', 'the same id once more is replaced');
  t.equal(reads.get, 2, 'the cache answered for it, not the store');
  t.same(await history(), ['plain', 'lead', 'clashing', 'after', 'fresh', 'again'], 'all in the order asked');
});
