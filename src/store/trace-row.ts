/**
 * A finished trace as a row, the form LMDB keeps (in pages): positional, without what the store keys or lists it by
 * (id, user, flow, session, start). Field names and the key's ids were half of an echo run's trace (545 bytes of JSON
 * instead of 1041). Rows are msgpack: written straight from a run as it ends (src/services/records/trace-row-writer.ts)
 * or from a trace's object form (`writeTraceRecordRow`), and read back by LMDB's store (lmdb/trace-text.ts).
 */
import type { SpanRecord, TraceRecord } from '../../protocol/trace.schema.js';
import type { MsgpackWriter } from './msgpack-writer.js';
import type { TraceSource } from './run-records.port.js';

/**
 * A span as written since rows were versioned: times as whole microseconds (from the trace's start; a float's
 * shortest text was a sixth of the row), an input that is an earlier span's output as a link to it rather than a
 * second copy (every edge's value was written twice: the output of its source, the input of its target), and
 * trailing nulls left off.
 */
export type SpanRow = [
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
export type InputLink = [field: string, span: number, output: string];

/** Rows written since versioning start with this; the first rows started with the flow name (a string). */
export const ROW_VERSION = 2;

/** What a trace's row holds before its spans, in every version. */
export type TraceColumns = [
  flowName: TraceRecord['flowName'],
  status: TraceRecord['status'],
  endedAt: TraceRecord['endedAt'],
  input: TraceRecord['input'],
  outputSpan: TraceRecord['outputSpan'],
  tokens: TraceRecord['tokens'],
];
export type TraceRow = [version: typeof ROW_VERSION, ...TraceColumns, spans: SpanRow[]];

/** Values worth a link rather than a copy: objects, and texts longer than the link itself. */
/** Texts up to this long are written again rather than linked (a link is about as long). */
export const LINKED_TEXT = 24;

export const linkable = (value: unknown): value is object | string => (typeof value === 'object' && value !== null) || (typeof value === 'string' && value.length > LINKED_TEXT);

export const us = (ms: number) => Math.round(ms * 1000);

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


/** Writes a trace's row from its object form. */
export const writeTraceRecordRow = (out: MsgpackWriter, trace: TraceRecord): void => out.value(traceRow(trace));

/** A trace already in its object form as a source to write (how the store tests put records). */
export const traceSourceOf = (trace: TraceRecord): TraceSource => ({
  id: trace.id,
  userId: trace.userId,
  flowId: trace.flowId,
  sessionId: trace.sessionId,
  startedAt: trace.startedAt,
  writeRow: (out) => (writeTraceRecordRow(out, trace), trace.spans.length),
  record: () => trace,
});
