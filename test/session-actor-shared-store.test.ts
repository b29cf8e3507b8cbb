/**
 * Session actors of two instances over one store that counts each session's changes, as PostgreSQL does for a
 * cluster: a read through one instance holds what the other committed before it was asked (appends, edits,
 * deletes), and an instance that alone writes a session never rereads it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ActorHost } from '../actors/actor-host.js';
import { createLogger } from '../src/logger.js';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import type { MessageRepo } from '../src/store/port.js';
import { createMessage } from '../src/values/message.js';

/** The LMDB message repo with a change count per session (bumped as each write commits) and its history reads counted. */
function countingRepo(repo: MessageRepo) {
  const counts = new Map<string, number>();
  const reads = { session: 0 };
  const bump = (flowId: string | null, sessionId: string) => counts.set(`${flowId}/${sessionId}`, (counts.get(`${flowId}/${sessionId}`) ?? 0) + 1);
  const shared: MessageRepo = {
    ...repo,
    put: async (message) => {
      await repo.put(message);
      bump(message.flow_id, message.session_id);
    },
    delete: async (message) => {
      await repo.delete(message);
      bump(message.flow_id, message.session_id);
    },
    session: (...args) => {
      reads.session++;
      return repo.session(...args);
    },
    changes: async (flowId, sessionId) => counts.get(`${flowId}/${sessionId}`) ?? 0,
  };
  return { shared, reads };
}

function twoInstances(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-shared-session-'));
  const store = openLmdbStore(dir);
  const a = countingRepo(store.messages);
  // One count for both: the store's, as every instance reads it. Only A's history reads are counted.
  const repoOfB: MessageRepo = { ...a.shared, session: store.messages.session };
  const hosts = [new ActorHost(a.shared, createLogger('silent')), new ActorHost(repoOfB, createLogger('silent'))];
  t.teardown(async () => {
    hosts.forEach((host) => host.close());
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const memories = hosts.map((host) => {
    const commits: Promise<void>[] = [];
    const memory = host.sessions.memoryFor('flow', (committed) => commits.push(committed));
    return {
      memory,
      /** A turn's store, resolved once it is committed (as a v1 run answers). */
      store: async (text: string, sender: string | null = null) => {
        const stored = await memory.store(createMessage({ text, session_id: 's', sender }));
        await Promise.all(commits);
        return stored;
      },
      texts: async () => (await memory.recent({ sessionId: 's', limit: 100, order: 'ASC' })).map((m) => m.text),
    };
  });
  return { store, onA: memories[0], onB: memories[1], readsOnA: a.reads, repoOfB };
}

t.test('a read on one instance holds the turns committed through the other before it', async (t) => {
  const { onA, onB } = twoInstances(t);
  await onA.store('first question');
  await onA.store('first answer');
  t.same(await onA.texts(), ['first question', 'first answer'], 'A has cached the session');
  await onB.store('second question');
  await onB.store('second answer');
  t.same(await onA.texts(), ['first question', 'first answer', 'second question', 'second answer'], "A's next read has B's turn");
  t.same(await onB.texts(), ['first question', 'first answer', 'second question', 'second answer'], 'and so has B');
});

t.test('edits and deletes committed through the other instance are in the next read', async (t) => {
  const { store, onA, repoOfB } = twoInstances(t);
  const kept = await onA.store('kept');
  const doomed = await onA.store('doomed');
  t.same(await onA.texts(), ['kept', 'doomed']);
  // As the messages API of the other instance writes: straight to the store.
  const [keptRecord, doomedRecord] = await Promise.all([store.messages.get(kept.id!), store.messages.get(doomed.id!)]);
  await repoOfB.put({ ...keptRecord!, text: 'kept, edited' });
  t.same(await onA.texts(), ['kept, edited', 'doomed'], 'an edit');
  await repoOfB.delete(doomedRecord!);
  t.same(await onA.texts(), ['kept, edited'], 'a delete');
});

t.test('an instance that alone writes a session reads its history once, however many turns it serves', async (t) => {
  const { onA, readsOnA } = twoInstances(t);
  for (let turn = 0; turn < 20; turn++) {
    await onA.store(`question ${turn}`);
    t.equal((await onA.texts()).length, turn * 2 + 1);
    await onA.store(`answer ${turn}`);
  }
  t.equal((await onA.texts()).length, 40);
  t.equal(readsOnA.session, 1, 'only the first read, when the actor started');
});

t.test('after a reread, a read longer than the reread kept is answered from the store, whole and in order', async (t) => {
  const { onA, onB } = twoInstances(t);
  for (let i = 0; i < 130; i++) await onA.store(`turn ${i}`);
  t.equal((await onA.texts()).length, 100, 'the read asked for 100');
  await onB.store('from B', 'Machine');
  const texts = await onA.texts();
  t.equal(texts.length, 100);
  t.equal(texts.at(-1), 'from B', "the newest is B's");
  const all = (await onA.memory.recent({ sessionId: 's', limit: 200, order: 'ASC' })).map((m) => m.text);
  t.same(all, [...Array.from({ length: 130 }, (_, i) => `turn ${i}`), 'from B'], 'all 131, oldest first');
  const newestFirst = (await onA.memory.recent({ sessionId: 's', limit: 120, order: 'DESC' })).map((m) => m.text);
  t.same(newestFirst, [...all].reverse().slice(0, 120), 'newest first, only as many as asked for');
  // Only B's message has a sender: a filtered read past the cache reads the whole history and keeps what matches.
  const bySender = await onA.memory.recent({ sessionId: 's', limit: 150, order: 'ASC', sender: 'Machine' });
  t.same(
    bySender.map((m) => m.text),
    ['from B'],
    "a sender's messages: only theirs",
  );
});
