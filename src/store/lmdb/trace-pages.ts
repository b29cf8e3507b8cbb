/**
 * Traces as LMDB keeps them: the traces of one user's flow that were written together (the runs of that flow that
 * ended in the same moment, up to 50 ms) are one record, a page, rather than one record each: each put has a cost of
 * its own (its key, its entry in the tree, its promise), paid once per flow in the moment instead of once per run. In
 * one run of the records bench, traces added 14.9 us of CPU to an echo run written one by one, and 9.0 us written as
 * pages. This file is the pages' format and their reads; trace-page-writer.ts writes them.
 *
 * A page is bytes: a header, what listings need of each trace ([startedAt, id, spanCount, sessionId]), then the
 * traces' rows (../trace-row.ts) as one msgpack array in the same order. Listings and lookups by id read the header
 * alone, from the stored bytes, without decoding the rows. The header is msgpack after a byte msgpack never uses
 * (MSGPACK_PAGE) and its length; it was a line of JSON in the pages written before (they begin with `[`), and their
 * rows JSON text in the first pages (their body starts with `[`, which no msgpack array does): those still read, and
 * a page rewritten (a trace deleted out of it) is written as pages are now.
 */
import { Unpackr } from 'msgpackr';
import type { TraceRecord } from '../../../protocol/trace.schema.js';
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
export const PAGE_BYTES_MAX = 1 << 20;
/** A page's first byte when its header is msgpack (one msgpack never uses), then the header's length (uint32). */
export const MSGPACK_PAGE = 0xc1;

const NEWLINE = 0x0a;
/** How the rows of the first pages (JSON text) begin. */
const JSON_ARRAY = 0x5b;

/** Plain msgpack maps: a page is self-contained (no structures shared between records to keep in step). */
const rowsUnpacker = new Unpackr({ useRecords: false, mapsAsObjects: true });

/** Page keys have four parts; a trace written alone (by earlier builds) has a key of six (trace-text.ts). */
export const isPageKey = (key: readonly unknown[]): key is PageKey => key.length === 4;

export interface Page {
  key: PageKey;
  bytes: Buffer;
}

/** Where a page's header is in its stored bytes, and whether it is msgpack (else JSON, which escapes every newline). */
function headerOf(bytes: Buffer): { start: number; end: number; msgpack: boolean } {
  if (bytes[0] === MSGPACK_PAGE) return { start: 5, end: 5 + bytes.readUInt32BE(1), msgpack: true };
  const end = bytes.indexOf(NEWLINE);
  return { start: 0, end: end < 0 ? bytes.length : end, msgpack: false };
}

/** A page's header, from its stored bytes (the rows are not decoded). */
export function pageEntries(bytes: Buffer): PageEntry[] {
  const { start, end, msgpack } = headerOf(bytes);
  const header = bytes.subarray(start, end);
  return (msgpack ? rowsUnpacker.unpack(header) : JSON.parse(header.toString('utf8'))) as PageEntry[];
}

/** Whether the page holds this trace: its header is decoded only when its bytes name the id (a session may too). */
export function pageHolds(bytes: Buffer | undefined, id: string): boolean {
  if (bytes === undefined) return false;
  const { start, end, msgpack } = headerOf(bytes);
  const header = bytes.subarray(start, end);
  return header.includes(msgpack ? id : JSON.stringify(id)) && pageEntries(bytes).some((entry) => entry[1] === id);
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

/** A page's header and its rows, decoded. */
export function parsePage(bytes: Buffer): { entries: PageEntry[]; rows: unknown[] } {
  const { end, msgpack } = headerOf(bytes);
  // A JSON header ends with its line.
  const body = bytes.subarray(msgpack ? end : end + 1);
  const rows = body[0] === JSON_ARRAY ? JSON.parse(body.toString('utf8')) : rowsUnpacker.unpack(body);
  return { entries: pageEntries(bytes), rows: rows as unknown[] };
}
