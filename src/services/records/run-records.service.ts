/**
 * The monitor's view of the records of what ran: traces and transactions of the caller's flows (another user's
 * flow or trace is "not found"). Reads wait for the records of runs already ended to be written first.
 */
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import type { TransactionRecord } from '../../../protocol/transaction.schema.js';
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import { NotFoundError } from '../../errors/app.error.js';
import type { LogRetention } from '../../runs/log-retention.js';
import type { RunRecordRepo } from '../../store/port.js';
import type { FlowsService } from '../flows.service.js';
import type { Page } from '../paginate.js';
import type { RunRecorder } from './run-recorder.js';
import { pageOfSpans, transactionOf } from './transactions-of.js';

export interface TraceQuery {
  flowId?: string;
  sessionId?: string;
  page: number;
  size: number;
}

export interface TracePage {
  traces: TraceRecord[];
  total: number;
  pages: number;
}

export class RunRecordsService {
  constructor(
    private readonly repo: RunRecordRepo,
    private readonly flows: FlowsService,
    /** Absent when records are off: reads then find what earlier runs left. */
    private readonly recorder: RunRecorder | undefined,
    private readonly retention: LogRetention,
  ) {}

  /** Settles after the next retention sweep that removes records (how many traces): when retention took effect. */
  nextExpiry(): Promise<number> {
    return this.retention.nextRemoval();
  }

  async traces(userId: string, query: TraceQuery): Promise<TracePage> {
    if (query.flowId !== undefined) await this.flows.readable(userId, query.flowId);
    await this.recorder?.settled();
    let index = await this.repo.traceIndex(userId, query.flowId);
    if (query.sessionId !== undefined) index = index.filter((entry) => entry.sessionId === query.sessionId);
    const start = (query.page - 1) * query.size;
    const traces = await this.repo.traces(index.slice(start, start + query.size));
    // Langflow answers at least one page, even when there is nothing.
    return { traces, total: index.length, pages: Math.max(1, Math.ceil(index.length / query.size)) };
  }

  async trace(userId: string, traceId: string): Promise<TraceRecord> {
    await this.recorder?.settled();
    const trace = await this.repo.trace(userId, traceId);
    if (!trace) throw new NotFoundError('Trace not found');
    return trace;
  }

  async deleteTrace(userId: string, traceId: string): Promise<void> {
    await this.repo.deleteTrace(await this.trace(userId, traceId));
  }

  async deleteForFlow(userId: string, flowId: string): Promise<void> {
    await this.flows.readable(userId, flowId);
    await this.recorder?.settled();
    await this.repo.deleteForFlow(userId, flowId);
  }

  async transactions(userId: string, flowId: string, page: number, size: number): Promise<Page<TransactionRecord>> {
    await this.flows.readable(userId, flowId);
    await this.recorder?.settled();
    // Oldest first, as they ran; only the traces the page falls in are read.
    const entries = (await this.repo.traceIndex(userId, flowId)).reverse();
    const total = entries.reduce((sum, entry) => sum + entry.spanCount, 0);
    const items: TransactionRecord[] = [];
    const wanted = pageOfSpans(entries, (page - 1) * size, size);
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    const traces = await this.repo.traces(wanted.map(({ id }) => byId.get(id)!));
    traces.forEach((trace) => {
      const { from, to } = wanted.find(({ id }) => id === trace.id)!;
      trace.spans.slice(from, to).forEach((span, i) => items.push(transactionOf(trace, span, from + i)));
    });
    return { items, total, page, size, pages: Math.ceil(total / size) };
  }

  /** Deleted flows take their records with them. */
  async forget(flows: readonly FlowRecord[]): Promise<void> {
    await this.recorder?.settled();
    for (const flow of flows) if (flow.user_id !== null) await this.repo.deleteForFlow(flow.user_id, flow.id);
  }
}
