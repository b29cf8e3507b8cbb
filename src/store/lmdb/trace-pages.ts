/**
 * Traces as LMDB writes them now: the traces of one user's flow that were written together (the runs of that flow
 * that ended in the same few milliseconds) are one record, a page, rather than one record each: each put has a
 * cost of its own (its key, its entry in the tree, its promise), paid once per flow in the moment instead of once
 * per run. In one run of the records bench, traces added 14.9 us of CPU to an echo run written one by one, and
 * 9.0 us written as pages.
 *
 * A page is text: a header line, what listings need of each trace ([startedAt, id, spanCount, sessionId], JSON),
 * then the traces' rows (trace-text.ts) as one JSON array in the same order. Listings and lookups by id read the
 * header alone, from the stored bytes, without decoding the rows.
 */
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import { traceOfRow, traceText, type TraceKey } from './trace-text.js';

/** A page's key: its user and flow, then the earliest start among its traces and that trace's id (unique). */
export type PageKey = [userId: string, flowId: string, firstStartedAt: number, firstId: string];

/** What a page's header holds of each of its traces. */
export type PageEntry = [startedAt: number, id: string, spanCount: number, sessionId: string];

/** Traces in one page at most, and the text past which a page takes no more: a page is read whole for one trace. */
export const PAGE_MAX = 200;
const PAGE_TEXT_MAX = 1 << 20;

const NEWLINE = 0x0a;

/** Page keys have four parts; a trace written alone (by earlier builds) has a key of six (trace-text.ts). */
export const isPageKey = (key: readonly unknown[]): key is PageKey => key.length === 4;

export interface Page {
  key: PageKey;
  text: string;
}

/** The traces written together as pages: one per user's flow (more when it has over PAGE_MAX). */
export function pagesOf(written: readonly TraceRecord[]): Page[] {
  // By user, then by flow: ids are opaque strings, so no joined name could stand for the pair.
  const users = new Map<string, Map<string, TraceRecord[]>>();
  for (const trace of written) {
    let flows = users.get(trace.userId);
    if (!flows) users.set(trace.userId, (flows = new Map()));
    const traces = flows.get(trace.flowId);
    if (traces) traces.push(trace);
    else flows.set(trace.flowId, [trace]);
  }
  const pages: Page[] = [];
  for (const traces of [...users.values()].flatMap((flows) => [...flows.values()])) {
    let page = new PageText();
    for (const trace of traces) {
      if (page.full()) {
        pages.push(page.done());
        page = new PageText();
      }
      page.add(trace);
    }
    pages.push(page.done());
  }
  return pages;
}

/** A page being written. */
class PageText {
  private first: TraceRecord | undefined;
  private readonly entries: PageEntry[] = [];
  private readonly rows: string[] = [];
  private length = 0;

  add(trace: TraceRecord): void {
    if (this.first === undefined || trace.startedAt < this.first.startedAt) this.first = trace;
    this.entries.push([trace.startedAt, trace.id, trace.spans.length, trace.sessionId]);
    const row = traceText(trace);
    this.rows.push(row);
    this.length += row.length;
  }

  full(): boolean {
    return this.rows.length >= PAGE_MAX || this.length >= PAGE_TEXT_MAX;
  }

  done(): Page {
    const { userId, flowId, startedAt, id } = this.first!;
    return { key: [userId, flowId, startedAt, id], text: pageText(this.entries, `[${this.rows.join(',')}]`) };
  }
}

/** A page's text: its header line, then its rows (already JSON) in the same order. */
const pageText = (entries: readonly PageEntry[], rows: string): string => `${JSON.stringify(entries)}\n${rows}`;

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

/** The page's traces with these ids, in the page's order. */
export function pageTraces(key: PageKey, text: string, ids: ReadonlySet<string>): TraceRecord[] {
  const { entries, rows } = parsePage(text);
  const traces: TraceRecord[] = [];
  entries.forEach((entry, n) => {
    if (ids.has(entry[1])) traces.push(traceOfRow(traceKeyOf(key, entry), rows[n]));
  });
  return traces;
}

/** The page without one of its traces (undefined: it held no other). */
export function pageWithout(text: string, id: string): string | undefined {
  const { entries, rows } = parsePage(text);
  const kept = entries.flatMap((entry, n) => (entry[1] === id ? [] : [n]));
  if (kept.length === 0) return undefined;
  return pageText(kept.map((n) => entries[n]), JSON.stringify(kept.map((n) => rows[n])));
}

function parsePage(text: string): { entries: PageEntry[]; rows: unknown[] } {
  const end = text.indexOf('\n');
  return { entries: JSON.parse(text.slice(0, end)) as PageEntry[], rows: JSON.parse(text.slice(end + 1)) as unknown[] };
}
