/**
 * The storage port's records of what ran: vertex builds of the build API and the traces (with their spans, which
 * are also a flow's transactions) of every run. Apart from port.ts because they are written from events, never
 * read on the run path.
 */
import type { VertexBuildRecord } from '../../protocol/build.schema.js';
import type { TraceRecord } from '../../protocol/trace.schema.js';
import type { MsgpackWriter } from './msgpack-writer.js';

/**
 * Vertex builds of the build API (written for builds with `log_builds`), by flow then vertex, oldest first. Writes
 * are plain puts issued together (one commit shared with every other write of that moment), never awaited by a reply.
 */
export interface VertexBuildRepo {
  /** Adds builds, dropping each vertex's oldest beyond `keepPerVertex`. */
  add(builds: VertexBuildRecord[], keepPerVertex: number): Promise<void>;
  /** A flow's builds, by vertex id, then oldest first. */
  listByFlow(flowId: string): Promise<VertexBuildRecord[]>;
  deleteByFlow(flowId: string): Promise<void>;
}

/** Where a trace is listed: enough to filter and order a page without reading whole traces. */
export interface TraceIndexEntry {
  id: string;
  userId: string;
  flowId: string;
  sessionId: string;
  startedAt: number;
  spanCount: number;
  /** Where the store keeps the trace, for its own reads of the entries it listed (LMDB: the page holding it). */
  location?: unknown;
}

/**
 * A finished run's trace as the recorder hands it to its store: what keys and lists it, and the trace in the form
 * the store writes, its row written straight from the run (LMDB keeps rows) or its object form (built on request).
 */
export interface TraceSource {
  readonly id: string;
  readonly userId: string;
  readonly flowId: string;
  readonly sessionId: string;
  readonly startedAt: number;
  /** Writes the trace's row (src/store/trace-row.ts) to `out`; returns how many spans it has. */
  writeRow(out: MsgpackWriter): number;
  record(): TraceRecord;
}

/**
 * A finished run's trace as its store will write it: made as the run's turn ends (its row encoded), so that what
 * waits for the write is one value per trace, not the trace's objects (which young-generation GCs would copy). Only
 * the repo that prepared it can write it; beyond these fields it is the repo's own.
 */
export interface PreparedTrace {
  readonly id: string;
  readonly userId: string;
  readonly flowId: string;
  readonly sessionId: string;
  readonly startedAt: number;
  readonly spanCount: number;
}

/**
 * Records of what ran: a trace per run, its spans inside (a flow's transactions are its traces' spans). Writes are
 * plain puts issued together (one commit shared with the messages and jobs of that moment), never awaited by a reply.
 */
export interface RunRecordRepo {
  /** A finished run's trace, ready for `put` (nothing is written; the store may keep its bytes until then). */
  prepare(trace: TraceSource): PreparedTrace;
  /**
   * Stores finished runs' traces: every one prepared since the last put, in one call (those that ended together);
   * `expiresAt` (epoch ms): when retention may remove them.
   */
  put(traces: readonly PreparedTrace[], expiresAt: number): Promise<void>;
  /**
   * Calls `write` each time the store is about to commit the writes of the moment (messages, jobs), so that puts
   * made then join that commit instead of making one of their own a turn later. Absent where writes are not batched
   * that way (PostgreSQL): the caller then writes on its own schedule.
   */
  beforeCommit?(write: () => void): void;
  /** One of the user's traces (another user's is not found). */
  trace(userId: string, id: string): Promise<TraceRecord | undefined>;
  /** The traces listed (a page of `traceIndex`), in that order; those gone meanwhile are left out. */
  traces(entries: readonly TraceIndexEntry[]): Promise<TraceRecord[]>;
  /** A user's traces (of one flow), newest first. */
  traceIndex(userId: string, flowId?: string): Promise<TraceIndexEntry[]>;
  deleteTrace(trace: TraceRecord): Promise<void>;
  /** Removes every trace of a user's flow; returns how many went. */
  deleteForFlow(userId: string, flowId: string): Promise<number>;
  /** Removes the records that expired before `now`; returns how many traces went. */
  expire(now: number): Promise<number>;
}
