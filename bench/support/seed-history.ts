/**
 * Writes a long chat history straight into a stopped service's data dir through the service's own LMDB store
 * (compiled with the bench), in the records and key layout the service reads: seeding 100,000 messages through
 * runs would take minutes, this takes seconds.
 */
import { randomUUID } from 'node:crypto';
import type { MessageRecord } from '../../protocol/message.schema.js';
import { openLmdbStore } from '../../src/store/lmdb/lmdb-store.js';
import type { Store } from '../../src/store/port.js';

/** Puts issued together share one LMDB commit; this many per commit keeps each batch's memory small. */
const BATCH = 5_000;

function record(flowId: string, sessionId: string, index: number, seq: number): MessageRecord {
  const user = index % 2 === 0;
  return {
    id: randomUUID(),
    flow_id: flowId,
    session_id: sessionId,
    context_id: null,
    timestamp: new Date(Date.now() - 1000 * (100_000 - index)).toISOString(),
    sender: user ? 'User' : 'Machine',
    sender_name: user ? 'User' : 'AI',
    text: user ? `Question ${index}: what is the status of order ${index * 7}?` : `Order ${index * 7} shipped yesterday and should arrive within three days.`,
    files: [],
    error: false,
    edit: false,
    properties: {},
    category: 'message',
    content_blocks: [],
    seq,
  };
}

/** Seeds `count` messages of one session of one flow, oldest first, all ordered before anything stored later. */
export async function seedHistory(dataDir: string, flowId: string, sessionId: string, count: number): Promise<void> {
  const store = openLmdbStore(dataDir);
  try {
    // The service orders a session by `seq`, microseconds since the epoch: start well in the past.
    const firstSeq = (Date.now() - 60_000) * 1000 - count;
    for (let start = 0; start < count; start += BATCH) {
      const puts: Promise<void>[] = [];
      for (let i = start; i < Math.min(count, start + BATCH); i++) puts.push(store.messages.put(record(flowId, sessionId, i, firstSeq + i)));
      await Promise.all(puts);
    }
  } finally {
    await store.close();
  }
}

/** Opens the store read-side for a baseline measure; the caller closes it. */
export function openStore(dataDir: string): Store {
  return openLmdbStore(dataDir);
}
