/**
 * Records of what ran in LMDB. `traces` holds each trace by id (spans inside); `trace_index` lists them by
 * [userId, flowId, startedAt, id] with the session id as value, so a page is filtered and ordered from keys alone;
 * `transactions` holds each component execution by [userId, flowId, startedAt, traceId, n], so a flow's transactions
 * are one ordered range (counted and sliced without decoding the rest); `trace_expiry` orders traces by when retention
 * may remove them. Traces are written as JSON text: written once, read rarely, and V8's JSON is cheaper than
 * msgpack for these nested values.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import type { TransactionRecord } from '../../../protocol/transaction.schema.js';
import type { RunRecordRepo, TraceIndexEntry } from '../port.js';
import { answer } from './answer.js';
import { HIGH, prefixRange, SHARED_STRUCTURES } from './keys.js';

type IndexKey = [userId: string, flowId: string, startedAt: number, traceId: string];
type TransactionKey = [userId: string, flowId: string, startedAt: number, traceId: string, n: number];
type ExpiryKey = [expiresAt: number, traceId: string];

const done = () => undefined;

export function lmdbRunRecords(env: RootDatabase): RunRecordRepo {
  const traces: Database<string, string> = env.openDB({ name: 'traces', encoding: 'string' });
  const index: Database<string, IndexKey> = env.openDB({ name: 'trace_index', encoding: 'msgpack' });
  const transactions: Database<TransactionRecord, TransactionKey> = env.openDB({ name: 'transactions', encoding: 'msgpack', sharedStructuresKey: SHARED_STRUCTURES });
  const expiry: Database<null, ExpiryKey> = env.openDB({ name: 'trace_expiry', encoding: 'msgpack' });

  const read = (id: string): TraceRecord | undefined => {
    const text = traces.get(id);
    return text === undefined ? undefined : (JSON.parse(text) as TraceRecord);
  };
  /** Removes one trace and what belongs to it; inside a transaction (the caller's). */
  const removeTrace = (trace: TraceRecord) => {
    traces.remove(trace.id);
    index.remove([trace.userId, trace.flowId, trace.startedAt, trace.id]);
    for (const key of transactions.getKeys(prefixRange(trace.userId, trace.flowId, trace.startedAt, trace.id))) transactions.remove(key);
  };

  return {
    put: (trace, runTransactions, expiresAt) => {
      try {
        // Plain puts of one tick share lmdb's commit (with the messages and jobs of that moment): awaited once.
        const writes: Promise<boolean>[] = [traces.put(trace.id, JSON.stringify(trace)), index.put([trace.userId, trace.flowId, trace.startedAt, trace.id], trace.sessionId), expiry.put([expiresAt, trace.id], null)];
        runTransactions.forEach((transaction, n) => writes.push(transactions.put([trace.userId, trace.flowId, trace.startedAt, trace.id, n], transaction)));
        return Promise.all(writes).then(done);
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
    trace: (id) => answer(() => read(id)),
    traceIndex: (userId, flowId) =>
      answer(() => {
        const range = flowId === undefined ? prefixRange(userId) : prefixRange(userId, flowId);
        const entries: TraceIndexEntry[] = [];
        for (const { key, value } of index.getRange(range)) entries.push({ id: key[3], flowId: key[1], sessionId: value, startedAt: key[2] });
        return entries.sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1));
      }),
    transactions: (userId, flowId, offset, limit) =>
      answer(() => {
        // One pass over the keys counts them and picks the page; only the page's values are decoded. (lmdb's
        // getCount left later iterators of the database broken, and its `offset` failed to iterate.)
        const items: TransactionRecord[] = [];
        let total = 0;
        for (const key of transactions.getKeys(prefixRange(userId, flowId))) {
          if (total >= offset && items.length < limit) items.push(transactions.get(key)!);
          total++;
        }
        return { items, total };
      }),
    deleteTrace: (trace) => env.transaction(() => removeTrace(trace)),
    deleteForFlow: (userId, flowId) =>
      env.transaction(() => {
        let removed = 0;
        for (const key of index.getKeys(prefixRange(userId, flowId))) {
          const trace = read(key[3]);
          if (trace) removeTrace(trace);
          else index.remove(key);
          removed++;
        }
        // Transactions of runs whose trace is gone already (or never written) go too.
        for (const key of transactions.getKeys(prefixRange(userId, flowId))) transactions.remove(key);
        return removed;
      }),
    async expire(now) {
      const due = [...expiry.getKeys({ end: [now, HIGH] })];
      if (due.length === 0) return 0;
      await env.transaction(() => {
        for (const key of due) {
          expiry.remove(key);
          const trace = read(key[1]);
          if (trace) removeTrace(trace);
        }
      });
      return due.length;
    },
  };
}
