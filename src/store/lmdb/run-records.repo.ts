/**
 * Records of what ran in LMDB. `traces` holds each trace by id (spans inside), as JSON text: written once, read
 * rarely, and V8's JSON is cheaper than msgpack for these nested values. `trace_index` lists them by
 * [userId, flowId, startedAt, id] with [sessionId, spanCount] as value, so a page of traces (or of a flow's
 * transactions, which are its traces' spans) is filtered and found from the index alone; `trace_expiry` orders
 * the traces written together by when retention may remove them (one entry per write, not per trace). Two puts per
 * run and one per write, all issued together.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import type { RunRecordRepo, TraceIndexEntry } from '../port.js';
import { answer } from './answer.js';
import { HIGH, prefixRange } from './keys.js';

type IndexKey = [userId: string, flowId: string, startedAt: number, traceId: string];
type IndexValue = [sessionId: string, spanCount: number];
type ExpiryKey = [expiresAt: number, firstTraceId: string];

const done = () => undefined;

export function lmdbRunRecords(env: RootDatabase): RunRecordRepo {
  const traces: Database<string, string> = env.openDB({ name: 'traces', encoding: 'string' });
  const index: Database<IndexValue, IndexKey> = env.openDB({ name: 'trace_index', encoding: 'msgpack' });
  const expiry: Database<string[], ExpiryKey> = env.openDB({ name: 'trace_expiry', encoding: 'msgpack' });

  const read = (id: string): TraceRecord | undefined => {
    const text = traces.get(id);
    return text === undefined ? undefined : (JSON.parse(text) as TraceRecord);
  };
  const indexKey = (trace: TraceRecord): IndexKey => [trace.userId, trace.flowId, trace.startedAt, trace.id];
  /** Removes one trace and its index entry; inside a transaction (the caller's). */
  const removeTrace = (trace: TraceRecord) => {
    traces.remove(trace.id);
    index.remove(indexKey(trace));
  };

  return {
    put: (written, expiresAt) => {
      if (written.length === 0) return Promise.resolve();
      try {
        // Plain puts of one tick share lmdb's commit (with the messages and jobs of that moment): awaited once.
        const writes = [expiry.put([expiresAt, written[0].id], written.map((trace) => trace.id))];
        for (const trace of written) writes.push(traces.put(trace.id, JSON.stringify(trace)), index.put(indexKey(trace), [trace.sessionId, trace.spans.length]));
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
        for (const { key, value } of index.getRange(range)) entries.push({ id: key[3], flowId: key[1], startedAt: key[2], sessionId: value[0], spanCount: value[1] });
        return entries.sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1));
      }),
    deleteTrace: (trace) => env.transaction(() => removeTrace(trace)),
    deleteForFlow: (userId, flowId) =>
      env.transaction(() => {
        let removed = 0;
        for (const key of index.getKeys(prefixRange(userId, flowId))) {
          traces.remove(key[3]);
          index.remove(key);
          removed++;
        }
        return removed;
      }),
    async expire(now) {
      const due = [...expiry.getRange({ end: [now, HIGH] })];
      if (due.length === 0) return 0;
      let removed = 0;
      await env.transaction(() => {
        for (const { key, value: ids } of due) {
          expiry.remove(key);
          for (const id of ids) {
            const trace = read(id);
            if (trace) removeTrace(trace);
            removed++;
          }
        }
      });
      return removed;
    },
  };
}
