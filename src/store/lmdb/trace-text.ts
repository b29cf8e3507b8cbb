/**
 * A trace as LMDB keeps it: a positional row, without what its page's key and header (trace-pages.ts) already hold
 * (id, user, flow, session, start). Field names and the key's ids were half of an echo run's trace (545 bytes of
 * JSON instead of 1041), and encoding is most of what recording a run costs the process: fewer values to encode and
 * to commit. Pages encode rows with msgpack; what earlier builds wrote alone (JSON text: an object of the whole
 * trace, then rows of the first shape and of this one) still reads.
 */
import type { SpanRecord, TraceRecord } from '../../../protocol/trace.schema.js';
import { ROW_VERSION, type SpanRow, type TraceColumns, type TraceRow } from '../trace-row.js';

/** The key a trace written alone was stored under (see run-records.repo.ts), which its text does not repeat. */
export type TraceKey = [userId: string, flowId: string, startedAt: number, traceId: string, spanCount: number, sessionId: string];

/** The first rows: times as epoch milliseconds, inputs whole, every column written. */
type FirstSpanRow = [
  vertexId: SpanRecord['vertexId'],
  targetId: SpanRecord['targetId'],
  name: SpanRecord['name'],
  componentType: SpanRecord['componentType'],
  startedAt: SpanRecord['startedAt'],
  latencyMs: SpanRecord['latencyMs'],
  status: SpanRecord['status'],
  inputs: SpanRecord['inputs'],
  outputs: SpanRecord['outputs'],
  error: SpanRecord['error'],
  model: SpanRecord['model'],
  tokens: SpanRecord['tokens'],
];
type FirstTraceRow = [...TraceColumns, spans: FirstSpanRow[]];

function spanOf(row: SpanRow, traceStart: number, spans: readonly SpanRecord[]): SpanRecord {
  const [vertexId, targetId, name, componentType, startUs, latencyUs, status, own, outputs, links = null, error = null, model = null, tokens = null] = row;
  let inputs = own;
  if (links !== null) {
    inputs = { ...own };
    for (const [field, span, output] of links) inputs[field] = spans[span]?.outputs[output] ?? null;
  }
  return { vertexId, targetId, name, componentType, startedAt: traceStart + startUs / 1000, latencyMs: latencyUs / 1000, status, inputs, outputs, error, model, tokens };
}

const firstSpanOf = ([vertexId, targetId, name, componentType, startedAt, latencyMs, status, inputs, outputs, error, model, tokens]: FirstSpanRow): SpanRecord => ({
  vertexId,
  targetId,
  name,
  componentType,
  startedAt,
  latencyMs,
  status,
  inputs,
  outputs,
  error,
  model,
  tokens,
});

export const traceOfText = (key: TraceKey, text: string): TraceRecord => traceOfRow(key, JSON.parse(text));

/** A trace from its row as parsed (a page holds rows: trace-pages.ts), and the key it has or would have alone. */
export function traceOfRow(key: TraceKey, row: unknown): TraceRecord {
  const parsed = row as TraceRow | FirstTraceRow | TraceRecord;
  if (!Array.isArray(parsed)) return parsed;
  const [userId, flowId, startedAt, id, , sessionId] = key;
  const head = { id, userId, flowId, sessionId, startedAt };
  if (parsed[0] !== ROW_VERSION) {
    const [flowName, status, endedAt, input, outputSpan, tokens, spans] = parsed as FirstTraceRow;
    return { ...head, flowName, status, endedAt, input, outputSpan, tokens, spans: spans.map(firstSpanOf) };
  }
  const [, flowName, status, endedAt, input, outputSpan, tokens, rows] = parsed;
  const spans: SpanRecord[] = [];
  for (const row of rows) spans.push(spanOf(row, startedAt, spans));
  return { ...head, flowName, status, endedAt, input, outputSpan, tokens, spans };
}
