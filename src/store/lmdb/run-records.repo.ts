/**
 * Records of what ran in LMDB, one put per run. `traces` holds each trace as JSON text (written once, read rarely;
 * V8's JSON is cheaper than msgpack for these nested values; see trace-text.ts) under [userId, flowId, startedAt, id,
 * spanCount, sessionId]: a flow's traces are one range in the order they ran, so a run's record is an append near the range's
 * end (a random run id as key made every commit touch pages all over the tree), and listings, filters by session
 * and transaction pages read keys alone. A trace found by id is looked for among its user's keys. `trace_expiry`
 * holds, per write, when retention may remove the traces written together: for each flow in it, the first and last
 * start among them (a few numbers per write, where a list of every key was as many bytes again as the traces). A
 * longer run of that flow that started inside that range but ended in a later write goes with the earlier write:
 * early by at most its own length, against a retention counted in days.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import type { RunRecordRepo, TraceIndexEntry } from '../port.js';
import { answer } from './answer.js';
import { HIGH, prefixRange } from './keys.js';
import { traceOfText, traceText, type TraceKey } from './trace-text.js';

type ExpiryKey = [expiresAt: number, firstTraceId: string];
/** A flow's traces in one write: those of that flow started in [first, last]. Entries written before were TraceKeys. */
type WrittenRange = [userId: string, flowId: string, first: number, last: number];

const done = () => undefined;
const keyOf = (trace: TraceRecord): TraceKey => [trace.userId, trace.flowId, trace.startedAt, trace.id, trace.spans.length, trace.sessionId];
const entryOf = (key: TraceKey): TraceIndexEntry => ({ userId: key[0], flowId: key[1], startedAt: key[2], id: key[3], spanCount: key[4], sessionId: key[5] });
const keyOfEntry = (entry: TraceIndexEntry): TraceKey => [entry.userId, entry.flowId, entry.startedAt, entry.id, entry.spanCount, entry.sessionId];

export function lmdbRunRecords(env: RootDatabase): RunRecordRepo {
  const traces: Database<string, TraceKey> = env.openDB({ name: 'run_traces', encoding: 'string' });
  const expiry: Database<(WrittenRange | TraceKey)[], ExpiryKey> = env.openDB({ name: 'run_trace_expiry', encoding: 'msgpack' });

  const read = (key: TraceKey): TraceRecord | undefined => {
    const text = traces.get(key);
    return text === undefined ? undefined : traceOfText(key, text);
  };
  const find = (userId: string, id: string): TraceKey | undefined => {
    for (const key of traces.getKeys(prefixRange(userId))) if (key[3] === id) return key;
    return undefined;
  };

  return {
    put: (written, expiresAt) => {
      if (written.length === 0) return Promise.resolve();
      try {
        // Plain puts of one tick share lmdb's commit (with the messages and jobs of that moment): awaited once.
        const writes = [expiry.put([expiresAt, written[0].id], writtenRanges(written))];
        for (const trace of written) writes.push(traces.put(keyOf(trace), traceText(trace)));
        return Promise.all(writes).then(done);
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
    // lmdb runs these as a turn's batch of writes is about to be handed to its writer: puts made then are in it.
    beforeCommit: (write) => env.on('beforecommit', write),
    trace: (userId, id) =>
      answer(() => {
        const key = find(userId, id);
        return key && read(key);
      }),
    traces: (entries) => answer(() => entries.map((entry) => read(keyOfEntry(entry))).filter((trace): trace is TraceRecord => trace !== undefined)),
    traceIndex: (userId, flowId) =>
      answer(() => {
        const range = flowId === undefined ? prefixRange(userId) : prefixRange(userId, flowId);
        const entries: TraceIndexEntry[] = [];
        for (const key of traces.getKeys(range)) entries.push(entryOf(key));
        return entries.sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1));
      }),
    deleteTrace: (trace) => traces.remove(keyOf(trace)).then(done),
    deleteForFlow: (userId, flowId) =>
      env.transaction(() => {
        let removed = 0;
        for (const key of traces.getKeys(prefixRange(userId, flowId))) {
          traces.remove(key);
          removed++;
        }
        return removed;
      }),
    async expire(now) {
      const due = [...expiry.getRange({ end: [now, HIGH] })];
      if (due.length === 0) return 0;
      let removed = 0;
      await env.transaction(() => {
        for (const { key, value } of due) {
          expiry.remove(key);
          for (const written of value) {
            const keys = written.length === 4 ? [...traces.getKeys(rangeOf(written))] : [written];
            for (const traceKey of keys) {
              if (traces.doesExist(traceKey)) {
                traces.remove(traceKey);
                removed++;
              }
            }
          }
        }
      });
      return removed;
    },
  };
}

const rangeOf = ([userId, flowId, first, last]: WrittenRange) => ({ start: [userId, flowId, first], end: [userId, flowId, last, HIGH] });

/** Where the traces of one write are: a range of start times per flow (a write holds one or two flows under load). */
function writtenRanges(written: readonly TraceRecord[]): WrittenRange[] {
  const ranges: WrittenRange[] = [];
  for (const { userId, flowId, startedAt } of written) {
    const range = ranges.find((r) => r[0] === userId && r[1] === flowId);
    if (!range) ranges.push([userId, flowId, startedAt, startedAt]);
    else if (startedAt < range[2]) range[2] = startedAt;
    else if (startedAt > range[3]) range[3] = startedAt;
  }
  return ranges;
}
