/**
 * Messages in LMDB: `messages` keyed [flowId, sessionId, seq] so a session's history is one ordered range, and
 * `message_ids` from id to that key. Puts are not awaited one by one: concurrent writes share LMDB's commit.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { MessageRecord } from '../../../protocol/message.schema.js';
import type { MessageRepo } from '../port.js';
import { answer } from './answer.js';
import { owner, prefixRange, SHARED_STRUCTURES } from './keys.js';

type MessageKey = [flowId: string, sessionId: string, seq: number];

const done = () => undefined;

export function lmdbMessages(env: RootDatabase): MessageRepo {
  // Shared structures: a record's field names are stored once for the database, not inside every record (without
  // them msgpackr writes each object's key list into each value: 356 bytes for an echo message instead of 107, and
  // a structure built per put). Records written before this still read: they carry their own field names.
  const messages: Database<MessageRecord, MessageKey> = env.openDB({ name: 'messages', encoding: 'msgpack', sharedStructuresKey: SHARED_STRUCTURES });
  const ids: Database<MessageKey, string> = env.openDB({ name: 'message_ids', encoding: 'msgpack' });
  const keyOf = (m: MessageRecord): MessageKey => [owner(m.flow_id), m.session_id, m.seq];

  return {
    // Two plain puts issued in the same tick land in the same LMDB batch (one commit, shared with every other
    // write of that moment); a transaction() here would commit alone and serialise message writes.
    put: (message) => {
      try {
        const key = keyOf(message);
        const stored = messages.put(key, message);
        const indexed = ids.put(message.id, key);
        // Puts of one batch usually share lmdb's commit promise: wait once then.
        return (stored === indexed ? stored : Promise.all([stored, indexed])).then(done);
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
    get: (id) =>
      answer(() => {
        const key = ids.get(id);
        return key ? messages.get(key) : undefined;
      }),
    session: (flowId, sessionId, { limit, newestFirst }) =>
      answer(() => {
        const range = prefixRange(owner(flowId), sessionId);
        const options = newestFirst ? { start: range.end, end: range.start, reverse: true, limit } : { ...range, limit };
        return [...messages.getRange(options).map(({ value }) => value)];
      }),
    scan: (flowId) =>
      answer(() => {
        const range = flowId === undefined ? {} : prefixRange(owner(flowId));
        return [...messages.getRange(range).map(({ value }) => value)];
      }),
    delete: (message) =>
      env.transaction(() => {
        messages.remove(keyOf(message));
        ids.remove(message.id);
      }),
  };
}
