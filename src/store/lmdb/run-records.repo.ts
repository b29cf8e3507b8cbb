/**
 * Records of what ran in LMDB. `run_traces` holds the traces of a user's flow written together as one page
 * (trace-pages.ts) under [userId, flowId, firstStartedAt, firstId]: a flow's pages are one range in the order they
 * were written, so a write is an append near the range's end, and listings, filters by session and transaction
 * pages read the pages' headers alone. Traces written one by one by earlier builds (trace-text.ts, under
 * [userId, flowId, startedAt, id, spanCount, sessionId]) are in the same ranges and still read, list and go. A trace
 * found by id is looked for among its user's keys and page headers. `trace_expiry` holds, per write, when
 * retention may remove the traces written together: for each flow in it, the first and last start among them (a
 * few numbers per write, where a list of every key was as many bytes again as the traces). A longer run of that
 * flow that started inside that range but ended in a later write goes with the earlier write: early by at most its
 * own length, against a retention counted in days.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import type { PreparedTrace, RunRecordRepo, TraceIndexEntry } from '../port.js';
import { answer } from './answer.js';
import { HIGH, prefixRange } from './keys.js';
import { pageWithout, TracePageWriter, type PageTrace } from './trace-page-writer.js';
import { isPageKey, pageEntries, pageHolds, pageTraces, traceKeyOf, type PageKey } from './trace-pages.js';
import { traceOfText, type TraceKey } from './trace-text.js';

type ExpiryKey = [expiresAt: number, firstTraceId: string];
/** A flow's traces in one write: those of that flow started in [first, last]. Entries written before were TraceKeys. */
type WrittenRange = [userId: string, flowId: string, first: number, last: number];
/** A page, or a trace written alone by an earlier build. */
type RecordKey = PageKey | TraceKey;

const done = () => undefined;
const entryOf = (key: TraceKey, page?: PageKey): TraceIndexEntry => ({ userId: key[0], flowId: key[1], startedAt: key[2], id: key[3], spanCount: key[4], sessionId: key[5], ...(page && { location: page }) });
const keyOfEntry = (entry: TraceIndexEntry): TraceKey => [entry.userId, entry.flowId, entry.startedAt, entry.id, entry.spanCount, entry.sessionId];

export function lmdbRunRecords(env: RootDatabase): RunRecordRepo {
  // Pages are bytes (trace-pages.ts); traces written alone by earlier builds are JSON text, read as strings.
  const traces: Database<string | Buffer, RecordKey> = env.openDB({ name: 'run_traces', encoding: 'string' });
  const expiry: Database<(WrittenRange | TraceKey)[], ExpiryKey> = env.openDB({ name: 'run_trace_expiry', encoding: 'msgpack' });
  const pageWriter = new TracePageWriter();

  /**
   * A record's stored bytes: a view of lmdb's buffer of the moment (read at once, never kept), cut to the record.
   * That buffer is larger than the record and says otherwise only through its own `length`, which Node 20's
   * `subarray` reads and Node 24's does not: uncut, a page's rows read on into the rest of the buffer there.
   */
  const bytesOf = (key: RecordKey): Buffer | undefined => {
    const bytes = traces.getBinaryFast(key);
    return bytes?.subarray(0, bytes.length);
  };
  /** A page's header from its stored bytes. */
  const headerOf = (key: PageKey) => {
    const bytes = bytesOf(key);
    return bytes === undefined ? [] : pageEntries(bytes);
  };
  /** How many traces a record holds. */
  const countOf = (key: RecordKey) => (isPageKey(key) ? headerOf(key).length : 1);
  const entriesIn = (range: ReturnType<typeof prefixRange>): TraceIndexEntry[] => {
    const entries: TraceIndexEntry[] = [];
    for (const key of traces.getKeys(range)) {
      if (!isPageKey(key)) entries.push(entryOf(key));
      else for (const entry of headerOf(key)) entries.push(entryOf(traceKeyOf(key, entry), key));
    }
    return entries;
  };
  /** The record holding one of the user's traces. */
  const find = (userId: string, id: string): RecordKey | undefined => {
    for (const key of traces.getKeys(prefixRange(userId))) {
      if (isPageKey(key) ? pageHolds(bytesOf(key), id) : key[3] === id) return key;
    }
    return undefined;
  };
  const readAlone = (key: TraceKey): TraceRecord | undefined => {
    const text = traces.get(key) as string | undefined;
    return text === undefined ? undefined : traceOfText(key, text);
  };
  /** These traces of one page (those gone meanwhile left out), decoded from lmdb's buffer of the moment at once. */
  const readPage = (key: PageKey, ids: ReadonlySet<string>): TraceRecord[] => {
    const bytes = bytesOf(key);
    return bytes === undefined ? [] : pageTraces(key, bytes, ids);
  };

  return {
    prepare: (trace) => pageWriter.prepare(trace),
    // Only what `prepare` made reaches `put` (the port's contract), and here every trace it made since the last put.
    put: (written: readonly PageTrace[], expiresAt) => {
      if (written.length === 0) return Promise.resolve();
      try {
        const pages = pageWriter.pages(written);
        // Plain puts of one tick share lmdb's commit (with the messages and jobs of that moment): awaited once.
        const writes = [expiry.put([expiresAt, written[0].id], writtenRanges(written))];
        for (const page of pages) writes.push(traces.put(page.key, page.bytes));
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
        if (key === undefined) return undefined;
        return isPageKey(key) ? readPage(key, new Set([id]))[0] : readAlone(key);
      }),
    traces: (entries) => answer(() => readListed(entries, readAlone, readPage)),
    traceIndex: (userId, flowId) =>
      answer(() => {
        const entries = entriesIn(flowId === undefined ? prefixRange(userId) : prefixRange(userId, flowId));
        return entries.sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1));
      }),
    deleteTrace: (trace) =>
      env
        .transaction(() => {
          const key = find(trace.userId, trace.id);
          const bytes = key && bytesOf(key);
          if (key === undefined || bytes === undefined) return;
          const rest = isPageKey(key) ? pageWithout(bytes, trace.id) : undefined;
          if (rest === undefined) traces.remove(key);
          else traces.put(key, rest);
        })
        .then(done),
    deleteForFlow: (userId, flowId) =>
      env.transaction(() => {
        let removed = 0;
        for (const key of traces.getKeys(prefixRange(userId, flowId))) {
          removed += countOf(key);
          traces.remove(key);
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
            const keys: RecordKey[] = written.length === 4 ? [...traces.getKeys(rangeOf(written))] : [written];
            for (const recordKey of keys) {
              if (traces.doesExist(recordKey)) {
                removed += countOf(recordKey);
                traces.remove(recordKey);
              }
            }
          }
        }
      });
      return removed;
    },
  };
}

/** The traces listed, in that order: each page read once for all of its traces listed. */
function readListed(entries: readonly TraceIndexEntry[], readAlone: (key: TraceKey) => TraceRecord | undefined, readPage: (key: PageKey, ids: ReadonlySet<string>) => TraceRecord[]): TraceRecord[] {
  const wanted = new Map<string, { key: PageKey; ids: Set<string> }>();
  for (const entry of entries) {
    const page = entry.location as PageKey | undefined;
    if (page === undefined) continue;
    const name = JSON.stringify(page);
    const ids = wanted.get(name)?.ids;
    if (ids) ids.add(entry.id);
    else wanted.set(name, { key: page, ids: new Set([entry.id]) });
  }
  const read = new Map<string, TraceRecord>();
  for (const { key, ids } of wanted.values()) for (const trace of readPage(key, ids)) read.set(trace.id, trace);
  const listed: TraceRecord[] = [];
  for (const entry of entries) {
    const trace = entry.location === undefined ? readAlone(keyOfEntry(entry)) : read.get(entry.id);
    if (trace !== undefined) listed.push(trace);
  }
  return listed;
}

const rangeOf = ([userId, flowId, first, last]: WrittenRange) => ({ start: [userId, flowId, first], end: [userId, flowId, last, HIGH] });

/** Where the traces of one write are: a range of start times per flow (a write holds one or two flows under load). */
function writtenRanges(written: readonly PreparedTrace[]): WrittenRange[] {
  const ranges: WrittenRange[] = [];
  for (const { userId, flowId, startedAt } of written) {
    const range = ranges.find((r) => r[0] === userId && r[1] === flowId);
    if (!range) ranges.push([userId, flowId, startedAt, startedAt]);
    else if (startedAt < range[2]) range[2] = startedAt;
    else if (startedAt > range[3]) range[3] = startedAt;
  }
  return ranges;
}
