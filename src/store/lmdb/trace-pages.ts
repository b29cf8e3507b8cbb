/**
 * Traces as LMDB writes them now: the traces of one user's flow that were written together (the runs of that flow that
 * ended in the same moment, up to 50 ms) are one record, a page, rather than one record each: each put has a cost of
 * its own (its key, its entry in the tree, its promise), paid once per flow in the moment instead of once per run. In
 * one run of the records bench, traces added 14.9 us of CPU to an echo run written one by one, and 9.0 us written as
 * pages.
 *
 * A page is bytes: a header line, what listings need of each trace ([startedAt, id, spanCount, sessionId], JSON), then
 * the traces' rows (../trace-row.ts) as one msgpack array in the same order. Each row is written as its run's turn ends
 * (`pageTrace`, the store's prepared trace), straight from the run by the recorder's row writer, so what waits for the
 * page is bytes, and the page joins them under the array's header. Listings and lookups by id read the header alone,
 * from the stored bytes, without decoding the rows. Rows were JSON text in the first pages (their body starts with `[`,
 * which no msgpack array does): those still read. Encoding is most of what a page costs the process, and msgpack takes
 * less of it: pages of real echo runs' traces took 2.4 to 2.6 us per trace to build on Node 20 where JSON text took 3.1
 * to 3.2 (2.0 against 2.2 on Node 24), and 39.6 kB per hundred traces, not 48.8.
 */
import { Packr, Unpackr } from 'msgpackr';
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import type { PreparedTrace, TraceSource } from '../port.js';
import { MsgpackWriter } from '../msgpack-writer.js';
import { traceOfRow, type TraceKey } from './trace-text.js';

/** A page's key: its user and flow, then the earliest start among its traces and that trace's id (unique). */
export type PageKey = [userId: string, flowId: string, firstStartedAt: number, firstId: string];

/** What a page's header holds of each of its traces. */
export type PageEntry = [startedAt: number, id: string, spanCount: number, sessionId: string];

/**
 * Traces in one page at most, and the bytes of its rows past which it is split (unless one trace alone is larger):
 * a page is read whole for one trace.
 */
export const PAGE_MAX = 200;
const PAGE_BYTES_MAX = 1 << 20;

const NEWLINE = 0x0a;
/** How the rows of the first pages (JSON text) begin. */
const JSON_ARRAY = 0x5b;

/** Plain msgpack maps: a page is self-contained (no structures shared between records to keep in step). */
const rowsPacker = new Packr({ useRecords: false });
const rowsUnpacker = new Unpackr({ useRecords: false, mapsAsObjects: true });

/** Page keys have four parts; a trace written alone (by earlier builds) has a key of six (trace-text.ts). */
export const isPageKey = (key: readonly unknown[]): key is PageKey => key.length === 4;

/** A trace made ready for a page as its run ended: what the page's header and key need of it, and its row encoded. */
export interface PageTrace extends PreparedTrace {
  readonly row: Buffer;
}

export interface Page {
  key: PageKey;
  bytes: Buffer;
}

/** Rows are written here, one at a time, then copied out (the page keeps its rows until it is written). */
const rowOut = new MsgpackWriter(1 << 14);

export function pageTrace(trace: TraceSource): PageTrace {
  rowOut.reset();
  const spanCount = trace.writeRow(rowOut);
  return { id: trace.id, userId: trace.userId, flowId: trace.flowId, startedAt: trace.startedAt, spanCount, sessionId: trace.sessionId, row: Buffer.from(rowOut.written()) };
}

/** A row's bytes, copied out of the packer's reused buffer. */
const encodedRow = (row: unknown): Buffer => Buffer.from(rowsPacker.pack(row));

/** The traces written together as pages: one per user's flow (more when it has over PAGE_MAX or too many bytes). */
export function pagesOf(written: readonly PageTrace[]): Page[] {
  // By user, then by flow: ids are opaque strings, so no joined name could stand for the pair.
  const users = new Map<string, Map<string, PageTrace[]>>();
  for (const trace of written) {
    let flows = users.get(trace.userId);
    if (!flows) users.set(trace.userId, (flows = new Map()));
    const traces = flows.get(trace.flowId);
    if (traces) traces.push(trace);
    else flows.set(trace.flowId, [trace]);
  }
  const pages: Page[] = [];
  for (const flows of users.values()) {
    for (const traces of flows.values()) {
      let start = 0;
      let bytes = 0;
      for (let n = 0; n < traces.length; n++) {
        if (n > start && (n - start === PAGE_MAX || bytes + traces[n].row.length > PAGE_BYTES_MAX)) {
          pages.push(pageOf(traces.slice(start, n)));
          [start, bytes] = [n, 0];
        }
        bytes += traces[n].row.length;
      }
      pages.push(pageOf(traces.slice(start)));
    }
  }
  return pages;
}

function pageOf(traces: readonly PageTrace[]): Page {
  const entries = traces.map((trace): PageEntry => [trace.startedAt, trace.id, trace.spanCount, trace.sessionId]);
  return { key: keyOf([traces[0].userId, traces[0].flowId], entries), bytes: pageBytes(entries, traces.map((trace) => trace.row)) };
}

/** Keyed by the earliest start among its traces (the first of them to start so, on a tie). */
function keyOf([userId, flowId]: [string, string], entries: readonly PageEntry[]): PageKey {
  let first = entries[0];
  for (const entry of entries) if (entry[0] < first[0]) first = entry;
  return [userId, flowId, first[0], first[1]];
}

/** A page's bytes: its header line, then its rows, encoded one by one, as one msgpack array in the same order. */
const pageBytes = (entries: readonly PageEntry[], rows: readonly Buffer[]): Buffer => Buffer.concat([Buffer.from(`${JSON.stringify(entries)}\n`), arrayHeader(rows.length), ...rows]);

/** msgpack's header of an array of `count` items (the items follow it, each encoded as itself). */
export function arrayHeader(count: number): Buffer {
  if (count < 16) return Buffer.of(0x90 | count);
  if (count < 0x10000) return Buffer.of(0xdc, count >> 8, count & 0xff);
  const header = Buffer.of(0xdd, 0, 0, 0, 0);
  header.writeUInt32BE(count, 1);
  return header;
}

/** Where a page's header ends in its stored bytes (JSON escapes every newline inside it). */
const headerEnd = (bytes: Buffer): number => {
  const end = bytes.indexOf(NEWLINE);
  return end < 0 ? bytes.length : end;
};

/** A page's header, from its stored bytes (the rows are not decoded). */
export function pageEntries(bytes: Buffer): PageEntry[] {
  return JSON.parse(bytes.toString('utf8', 0, headerEnd(bytes))) as PageEntry[];
}

/** Whether the page holds this trace: its header is parsed only when its bytes name the id (a session may too). */
export function pageHolds(bytes: Buffer | undefined, id: string): boolean {
  if (bytes === undefined) return false;
  const header = bytes.subarray(0, headerEnd(bytes));
  return header.includes(JSON.stringify(id)) && pageEntries(bytes).some((entry) => entry[1] === id);
}

/** The key a trace of this page would have had, written alone. */
export const traceKeyOf = ([userId, flowId]: PageKey, [startedAt, id, spanCount, sessionId]: PageEntry): TraceKey => [userId, flowId, startedAt, id, spanCount, sessionId];

/** The page's traces with these ids, in the page's order (decoded at once: nothing is kept of `bytes`). */
export function pageTraces(key: PageKey, bytes: Buffer, ids: ReadonlySet<string>): TraceRecord[] {
  const { entries, rows } = parsePage(bytes);
  const traces: TraceRecord[] = [];
  entries.forEach((entry, n) => {
    if (ids.has(entry[1])) traces.push(traceOfRow(traceKeyOf(key, entry), rows[n]));
  });
  return traces;
}

/** The page without one of its traces (undefined: it held no other), its rows written as pages are now. */
export function pageWithout(bytes: Buffer, id: string): Buffer | undefined {
  const { entries, rows } = parsePage(bytes);
  const kept = entries.flatMap((entry, n) => (entry[1] === id ? [] : [n]));
  if (kept.length === 0) return undefined;
  return pageBytes(
    kept.map((n) => entries[n]),
    kept.map((n) => encodedRow(rows[n])),
  );
}

function parsePage(bytes: Buffer): { entries: PageEntry[]; rows: unknown[] } {
  const end = headerEnd(bytes);
  const body = bytes.subarray(end + 1);
  const rows = body[0] === JSON_ARRAY ? JSON.parse(body.toString('utf8')) : rowsUnpacker.unpack(body);
  return { entries: pageEntries(bytes), rows: rows as unknown[] };
}
