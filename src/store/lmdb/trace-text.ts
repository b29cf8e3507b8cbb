/**
 * A trace as LMDB keeps it: a positional row, without what its page's key and header (trace-pages.ts) already hold
 * (id, user, flow, session, start). Field names and the key's ids were half of an echo run's trace (545 bytes of
 * JSON instead of 1041), and encoding is most of what recording a run costs the process: fewer values to encode and
 * to commit. Pages encode rows with msgpack; what earlier builds wrote alone (JSON text: an object of the whole
 * trace, then rows of the first shape and of this one) still reads.
 */
import type { SpanRecord, TraceRecord } from '../../../protocol/trace.schema.js';

/** The key a trace written alone was stored under (see run-records.repo.ts), which its text does not repeat. */
export type TraceKey = [userId: string, flowId: string, startedAt: number, traceId: string, spanCount: number, sessionId: string];

/**
 * A span as written since rows were versioned: times as whole microseconds (from the trace's start; a float's
 * shortest text was a sixth of the row), an input that is an earlier span's output as a link to it rather than a
 * second copy (every edge's value was written twice: the output of its source, the input of its target), and
 * trailing nulls left off.
 */
type SpanRow = [
  vertexId: SpanRecord['vertexId'],
  targetId: SpanRecord['targetId'],
  name: SpanRecord['name'],
  componentType: SpanRecord['componentType'],
  startUs: number,
  latencyUs: number,
  status: SpanRecord['status'],
  inputs: SpanRecord['inputs'],
  outputs: SpanRecord['outputs'],
  links?: InputLink[] | null,
  error?: SpanRecord['error'],
  model?: SpanRecord['model'],
  tokens?: SpanRecord['tokens'],
];

/** An input whose value is an earlier span's output: [field, that span's index, its output's name]. */
type InputLink = [field: string, span: number, output: string];

/** Rows written since versioning start with this; the first rows started with the flow name (a string). */
const ROW_VERSION = 2;

/** What a trace's row holds before its spans, in every version. */
type TraceColumns = [
  flowName: TraceRecord['flowName'],
  status: TraceRecord['status'],
  endedAt: TraceRecord['endedAt'],
  input: TraceRecord['input'],
  outputSpan: TraceRecord['outputSpan'],
  tokens: TraceRecord['tokens'],
];
type TraceRow = [version: typeof ROW_VERSION, ...TraceColumns, spans: SpanRow[]];

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

/** Values worth a link rather than a copy: objects, and texts longer than the link itself. */
const linkable = (value: unknown): value is object | string => (typeof value === 'object' && value !== null) || (typeof value === 'string' && value.length > 24);

const us = (ms: number) => Math.round(ms * 1000);

function spanRow(span: SpanRecord, traceStart: number, index: number, outputsSeen: Map<unknown, InputLink>): SpanRow {
  let inputs = span.inputs;
  let links: InputLink[] | null = null;
  for (const field in span.inputs) {
    if (outputsSeen.size === 0) break;
    const value = span.inputs[field];
    if (!linkable(value) || !outputsSeen.has(value)) continue;
    // Inputs are rebuilt without the linked ones (a fresh object, not `delete`: that turns V8's object slow).
    if (links === null) {
      links = [];
      inputs = {};
      for (const kept in span.inputs) if (!outputsSeen.has(span.inputs[kept])) inputs[kept] = span.inputs[kept];
    }
    const [, source, output] = outputsSeen.get(value)!;
    links.push([field, source, output]);
  }
  for (const output in span.outputs) {
    const value = span.outputs[output];
    if (linkable(value) && !outputsSeen.has(value)) outputsSeen.set(value, ['', index, output]);
  }
  const { vertexId, targetId, name, componentType, status, outputs, error, model, tokens } = span;
  const startUs = us(span.startedAt - traceStart);
  const latencyUs = us(span.latencyMs);
  // Built at its length (popping trailing nulls off a literal cost more than the bytes it saved).
  if (error !== null || model !== null || tokens !== null) return [vertexId, targetId, name, componentType, startUs, latencyUs, status, inputs, outputs, links, error, model, tokens];
  if (links !== null) return [vertexId, targetId, name, componentType, startUs, latencyUs, status, inputs, outputs, links];
  return [vertexId, targetId, name, componentType, startUs, latencyUs, status, inputs, outputs];
}

/** The outputs met so far in the trace being written (one trace at a time: cleared after each, not allocated per trace). */
const outputsSeen = new Map<unknown, InputLink>();

/** A trace as its row (without what its key, or its page, holds), ready to encode. */
export function traceRow(trace: TraceRecord): TraceRow {
  const spans: SpanRow[] = new Array<SpanRow>(trace.spans.length);
  try {
    for (let n = 0; n < spans.length; n++) spans[n] = spanRow(trace.spans[n], trace.startedAt, n, outputsSeen);
  } finally {
    outputsSeen.clear();
  }
  return [ROW_VERSION, trace.flowName, trace.status, trace.endedAt, trace.input, trace.outputSpan, trace.tokens, spans];
}

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
