/**
 * A trace as LMDB keeps it: JSON text of positional rows, without what its key already holds (id, user, flow,
 * session, start). Field names and the key's ids were half of an echo run's trace (545 bytes instead of 1041), and
 * encoding the text is most of what recording a run costs the process: fewer bytes to encode and to commit. Text
 * written before (a JSON object of the whole trace) still reads.
 */
import type { SpanRecord, TraceRecord } from '../../../protocol/trace.schema.js';

/** The key a trace is stored under (see run-records.repo.ts), which the text does not repeat. */
export type TraceKey = [userId: string, flowId: string, startedAt: number, traceId: string, spanCount: number, sessionId: string];

type SpanRow = [
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

type TraceRow = [
  flowName: TraceRecord['flowName'],
  status: TraceRecord['status'],
  endedAt: TraceRecord['endedAt'],
  input: TraceRecord['input'],
  outputSpan: TraceRecord['outputSpan'],
  tokens: TraceRecord['tokens'],
  spans: SpanRow[],
];

const spanRow = (s: SpanRecord): SpanRow => [s.vertexId, s.targetId, s.name, s.componentType, s.startedAt, s.latencyMs, s.status, s.inputs, s.outputs, s.error, s.model, s.tokens];

export function traceText(trace: TraceRecord): string {
  const spans: SpanRow[] = new Array<SpanRow>(trace.spans.length);
  for (let n = 0; n < spans.length; n++) spans[n] = spanRow(trace.spans[n]);
  const row: TraceRow = [trace.flowName, trace.status, trace.endedAt, trace.input, trace.outputSpan, trace.tokens, spans];
  return JSON.stringify(row);
}

const spanOf = ([vertexId, targetId, name, componentType, startedAt, latencyMs, status, inputs, outputs, error, model, tokens]: SpanRow): SpanRecord => ({
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

export function traceOfText(key: TraceKey, text: string): TraceRecord {
  const parsed = JSON.parse(text) as TraceRow | TraceRecord;
  if (!Array.isArray(parsed)) return parsed;
  const [flowName, status, endedAt, input, outputSpan, tokens, spans] = parsed;
  const [userId, flowId, startedAt, id, , sessionId] = key;
  return { id, userId, flowId, flowName, sessionId, status, startedAt, endedAt, input, outputSpan, tokens, spans: spans.map(spanOf) };
}
