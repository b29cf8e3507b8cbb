/**
 * Transactions (Langflow's TransactionTable rows) are the spans of a flow's stored traces, read in the order they
 * ran: nothing is written for them apart from the trace, so recording a run costs one record, not one per component.
 */
import type { SpanRecord, TraceRecord } from '../../../protocol/trace.schema.js';
import type { TransactionRecord } from '../../../protocol/transaction.schema.js';

export function transactionOf(trace: TraceRecord, span: SpanRecord, n: number): TransactionRecord {
  return {
    id: `${trace.id}:${n}`,
    timestamp: new Date(span.startedAt + span.latencyMs).toISOString(),
    vertex_id: span.vertexId,
    target_id: span.targetId,
    inputs: span.inputs,
    outputs: span.outputs,
    status: span.status === 'error' ? 'error' : 'success',
    error: span.error,
    flow_id: trace.flowId,
  };
}

/** The page [offset, offset + limit) of the spans of `traces` (oldest first), given each trace's span count. */
export function pageOfSpans(entries: readonly { id: string; spanCount: number }[], offset: number, limit: number): { id: string; from: number; to: number }[] {
  const wanted: { id: string; from: number; to: number }[] = [];
  let before = 0;
  for (const { id, spanCount } of entries) {
    const from = Math.max(0, offset - before);
    const to = Math.min(spanCount, offset + limit - before);
    if (from < to) wanted.push({ id, from, to });
    before += spanCount;
    if (before >= offset + limit) break;
  }
  return wanted;
}
