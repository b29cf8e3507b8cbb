/** The contract for stored messages: a session's history in order, by flow and session; scans; edits; deletes. */
import type { Test } from 'tap';
import type { MessageRecord } from '../../../protocol/message.schema.js';
import { freshStore, type OpenStore } from './opened.js';
import { message } from './records.js';

const texts = (records: MessageRecord[]) => records.map((m) => m.text);

export function messagesContract(t: Test, open: OpenStore): void {
  t.test('messages: a session reads back in seq order, either way, up to a limit', async (t) => {
    const { store } = await freshStore(t, open);
    // Written all at once and out of order: the history is ordered by seq, not by arrival.
    await Promise.all([3, 1, 5, 2, 4].map((seq) => store.messages.put(message('f1', 's1', seq))));
    await Promise.all([
      store.messages.put(message('f1', 's2', 6)),
      store.messages.put(message('f2', 's1', 7)),
      store.messages.put(message(null, 's1', 8)),
    ]);
    const ordered = ['message 1', 'message 2', 'message 3', 'message 4', 'message 5'];
    t.same(texts(await store.messages.session('f1', 's1', {})), ordered, 'oldest first');
    t.same(texts(await store.messages.session('f1', 's1', { newestFirst: true })), [...ordered].reverse(), 'newest first');
    t.same(texts(await store.messages.session('f1', 's1', { limit: 2 })), ordered.slice(0, 2), 'a limit keeps the oldest');
    t.same(texts(await store.messages.session('f1', 's1', { limit: 2, newestFirst: true })), ['message 5', 'message 4'], 'newest first, the newest');
    t.same(texts(await store.messages.session('f1', 's2', {})), ['message 6'], 'another session of the flow');
    t.same(texts(await store.messages.session('f2', 's1', {})), ['message 7'], 'the same session id of another flow');
    t.same(texts(await store.messages.session(null, 's1', {})), ['message 8'], 'a message of no flow');
    t.same(await store.messages.session('f1', 'no-such-session', {}), [], 'an unknown session');
  });

  t.test('messages: by id, scans, edits and deletes', async (t) => {
    const { store } = await freshStore(t, open);
    const [a1, a2, b1, other, loose] = [message('f1', 'a', 2), message('f1', 'a', 3), message('f1', 'b', 1), message('f2', 'a', 4), message(null, 'a', 5)];
    await Promise.all([a1, a2, b1, other, loose].map((m) => store.messages.put(m)));
    t.same(await store.messages.get(a2.id), a2, 'get');
    t.equal(await store.messages.get('no-such-message'), undefined, 'an unknown id');
    t.same(texts(await store.messages.scan('f1')), texts([a1, a2, b1]), "scan: the flow's messages by session, each in seq order");
    t.same(await store.messages.scan(null), [loose], 'scan(null): messages of no flow');
    t.same((await store.messages.scan()).map((m) => m.id).sort(), [a1, a2, b1, other, loose].map((m) => m.id).sort(), 'scan(): every message');
    const edited = { ...a1, text: 'edited', edit: true };
    await store.messages.put(edited);
    t.same(await store.messages.session('f1', 'a', {}), [edited, a2], 'a put of the same message replaces it in place');
    await store.messages.delete(edited);
    t.equal(await store.messages.get(a1.id), undefined, 'deleted: get');
    t.same(await store.messages.session('f1', 'a', {}), [a2], 'deleted: its session');
    t.same(texts(await store.messages.scan('f1')), texts([a2, b1]), 'deleted: the scan');
  });
}
