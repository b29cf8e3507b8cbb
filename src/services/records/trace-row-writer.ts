/**
 * A finished run's trace written as its row (src/store/trace-row.ts) straight from the run: the spans of `runSpans`
 * and the columns of `traceOf`, with no span, trace or row object built on the way and no encoder walking them. On
 * an echo run, building those objects and encoding them was about a twentieth of the run's throughput (the records
 * bench, traces on with and without the row built). What the row holds is what `traceRow(traceOf(...))` holds
 * (test/trace-row-writer.test.ts reads both back); `traceOf` stays the object form for the stores and exports that
 * take objects.
 */
import type { JobInput } from '../../../actors/job.actor.js';
import type { TokenCounts } from '../../../protocol/trace.schema.js';
import { isInputVertex, isOutputVertex, type GraphVertex } from '../../engine/graph.js';
import type { RunResult } from '../../runs/run-adapter.js';
import { MsgpackWriter } from '../../store/msgpack-writer.js';
import { ROW_VERSION, us } from '../../store/trace-row.js';
import { RECORDED_OBJECT, recordedLinkKey, recordedValue, writeRecorded } from './recorded-value.js';
import { failedVertexStart, readModel, targetOf, vertexRuns, type ModelUse, type RunTimings } from './run-spans.js';
import { questionText, TRACE_STATUS } from './trace-of.js';

/**
 * A span's inputs as `inputsOf` gathers them (its own fields, then what came along edges), in parallel arrays reused
 * from span to span: the first `count` of each are this span's (setting an array's length is a call into V8's
 * runtime, and `indexOf` a call into its C++: both showed in this file's profile under load).
 */
interface Inputs {
  count: number;
  fields: string[];
  values: unknown[];
  /** The edge's source vertex and output, or '' for the vertex's own field. */
  sources: string[];
  outputs: string[];
  /** Where an input is an earlier span's output: that span's index, else -1. */
  linkedSpan: number[];
  linkedOutput: string[];
}

/** One trace is written at a time: its spans go here first (the row's columns before them depend on them). */
const spansOut = new MsgpackWriter(1 << 12);
const inputs: Inputs = { count: 0, fields: [], values: [], sources: [], outputs: [], linkedSpan: [], linkedOutput: [] };
/** The spans written so far (the first `spans.count`), by vertex id (an edge's input links to its source's span). */
const spans = { count: 0 };
const spanIds: string[] = [];
/** Texts long enough to link (the first `linkable.count`), as first recorded as an output: text, span, output name. */
const linkable = { count: 0 };
const texts: string[] = [];
const textSpans: number[] = [];
const textOutputs: string[] = [];
const NO_OUTPUTS: Record<string, unknown> = {};
/** While a trace with repeated vertices is written: each vertex's outputs in its latest span so far. */
let latest: Map<string, Record<string, unknown>> | undefined;

/** The row's columns that depend on its spans, gathered as they are written (reset per trace). */
const row = { input: undefined as string | null | undefined, outputSpan: -1, lastOk: false, tokens: null as TokenCounts | null };
const model: ModelUse = { name: null, tokens: null };

export function writeTraceRow(out: MsgpackWriter, job: JobInput, timings: RunTimings, result: RunResult, endedAt: number): number {
  spansOut.reset();
  spans.count = linkable.count = 0;
  row.input = undefined;
  row.outputSpan = -1;
  row.lastOk = false;
  row.tokens = null;
  const vertices = job.graph.vertices;
  if (result.repeats) {
    // A loop ran: a span per run of each vertex, each reading its sources' outputs of the same iteration.
    latest = new Map();
    for (const run of vertexRuns(timings, result)) {
      const vertex = vertices.get(run.vertexId);
      if (vertex) okSpan(job, timings, result, vertex, run.endedAt, run.durationMs, run.outputs);
      latest.set(run.vertexId, run.outputs);
    }
  } else {
    for (const [vertexId, endAt] of timings.ends) {
      const vertex = vertices.get(vertexId);
      if (vertex) okSpan(job, timings, result, vertex, endAt, result.durations.get(vertexId) ?? 0, result.results.get(vertexId) ?? NO_OUTPUTS);
    }
  }
  latest = undefined;
  const failure = result.failure;
  const failed = failure?.kind === 'component' ? vertices.get(failure.vertexId) : undefined;
  if (failure?.kind === 'component' && failed) {
    const startedAt = failedVertexStart(job, timings, failed.id);
    const params = failed.params as Record<string, unknown>;
    span(job, result, failed, us(startedAt - timings.startedAt), Math.max(0, endedAt - startedAt), NO_OUTPUTS, failure.error.message, typeof params.model_name === 'string' ? params.model_name : null, null);
  }
  // No output span ended: the last span, when it did not fail.
  if (row.outputSpan < 0 && spans.count > 0 && row.lastOk) row.outputSpan = spans.count - 1;

  out.arrayHeader(8);
  out.num(ROW_VERSION);
  out.value(job.flow.name);
  out.str(TRACE_STATUS[result.status]);
  out.num(endedAt);
  out.value(row.input ?? null);
  out.value(row.outputSpan < 0 ? null : row.outputSpan);
  out.value(row.tokens);
  out.arrayHeader(spans.count);
  out.raw(spansOut.written());
  letGo();
  return spans.count;
}

/** The span of a vertex run that ended well. */
function okSpan(job: JobInput, timings: RunTimings, result: RunResult, vertex: GraphVertex, endAt: number, latencyMs: number, outputs: Record<string, unknown>): void {
  readModel(vertex, outputs, model);
  span(job, result, vertex, us(endAt - latencyMs - timings.startedAt), latencyMs, outputs, null, model.name, model.tokens);
}

/** One span written, and what the row's columns take of it. */
function span(job: JobInput, result: RunResult, vertex: GraphVertex, startUs: number, latencyMs: number, outputs: Record<string, unknown>, error: string | null, modelName: string | null, used: TokenCounts | null): void {
  const index = spans.count;
  gatherInputs(vertex, job, result);
  if (row.input === undefined && isInputVertex(vertex)) row.input = inputText(outputs);
  writeSpan(vertex, targetOf(job, vertex.id), startUs, us(latencyMs), outputs, error, modelName, used);
  spanIds[spans.count++] = vertex.id;
  row.lastOk = error === null;
  if (row.lastOk && isOutputVertex(vertex)) row.outputSpan = index;
  if (used) {
    const tokens = (row.tokens ??= { input: 0, output: 0, total: 0 });
    tokens.input += used.input;
    tokens.output += used.output;
    tokens.total += used.total;
  }
}

/** The reused arrays drop what they held of this run (a value, a long text): nothing of it outlives its trace. */
function letGo(): void {
  inputs.values.fill(undefined);
  texts.fill('');
  row.input = undefined;
  row.tokens = model.tokens = null;
}

/** The span's inputs, as `inputsOf` sets them: own fields (no passwords), then edges' values over them. */
function gatherInputs(vertex: GraphVertex, job: JobInput, result: RunResult): void {
  const { fields, values, sources, outputs } = inputs;
  let count = 0;
  const own = job.overrides.get(vertex.id);
  const declared = vertex.component.fields;
  for (const field in own) {
    if (declared[field]?.password) continue;
    fields[count] = field;
    values[count] = own[field];
    sources[count] = '';
    outputs[count++] = '';
  }
  for (const edge of job.graph.incoming.get(vertex.id) ?? []) {
    const value = (latest?.get(edge.source) ?? result.results.get(edge.source))?.[edge.sourceOutput];
    if (value === undefined) continue;
    let at = indexIn(fields, count, edge.targetField);
    if (at < 0) fields[(at = count++)] = edge.targetField;
    values[at] = value;
    sources[at] = edge.source;
    outputs[at] = edge.sourceOutput;
  }
  inputs.count = count;
}

/** Where `value` is among the first `count` of `items`, else -1. */
function indexIn<T>(items: readonly T[], count: number, value: T): number {
  for (let n = 0; n < count; n++) if (items[n] === value) return n;
  return -1;
}

/** Where `value` is last among the first `count` of `items`, else -1. */
function lastIndexIn<T>(items: readonly T[], count: number, value: T): number {
  for (let n = count - 1; n >= 0; n--) if (items[n] === value) return n;
  return -1;
}

/** The run's question, from its first input span: its recorded `input_value`, else its message output. */
function inputText(outputs: Record<string, unknown>): string | null {
  const at = indexIn(inputs.fields, inputs.count, 'input_value');
  return questionText((at < 0 ? undefined : recordedValue(inputs.values[at])) ?? recordedValue(outputs.message));
}

function writeSpan(vertex: GraphVertex, targetId: string | null, startUs: number, latencyUs: number, outputs: Record<string, unknown>, error: string | null, model: string | null, tokens: TokenCounts | null): void {
  const links = linkInputs();
  const full = error !== null || model !== null || tokens !== null;
  const out = spansOut;
  out.arrayHeader(full ? 13 : links > 0 ? 10 : 9);
  out.str(vertex.id);
  out.value(targetId);
  out.value(vertex.displayName);
  out.value(vertex.type);
  out.num(startUs);
  out.num(latencyUs);
  out.str(error === null ? 'ok' : 'error');
  const { count, fields, values, linkedSpan, linkedOutput } = inputs;
  out.mapHeader(count - links);
  for (let n = 0; n < count; n++) {
    if (linkedSpan[n] >= 0) continue;
    out.str(fields[n]);
    writeRecorded(out, values[n]);
  }
  let named = 0;
  for (const _ in outputs) named++;
  out.mapHeader(named);
  for (const name in outputs) {
    out.str(name);
    writeRecorded(out, outputs[name]);
    const key = recordedLinkKey(outputs[name]);
    if (typeof key === 'string' && indexIn(texts, linkable.count, key) < 0) {
      texts[linkable.count] = key;
      textSpans[linkable.count] = spans.count;
      textOutputs[linkable.count++] = name;
    }
  }
  if (links > 0) {
    out.arrayHeader(links);
    for (let n = 0; n < count; n++) {
      if (linkedSpan[n] < 0) continue;
      out.arrayHeader(3);
      out.str(fields[n]);
      out.num(linkedSpan[n]);
      out.str(linkedOutput[n]);
    }
  } else if (full) out.nil();
  if (full) {
    out.value(error);
    out.value(model);
    out.value(tokens);
  }
}

/**
 * Which inputs are an earlier span's output (trace-row.ts): what came along an edge from a span and is recorded as
 * an object is that span's output; a text long enough is the first output recorded with that text. Returns how many.
 */
function linkInputs(): number {
  const { count, values, sources, outputs, linkedSpan, linkedOutput } = inputs;
  let links = 0;
  for (let n = 0; n < count; n++) {
    linkedSpan[n] = -1;
    const key = recordedLinkKey(values[n]);
    if (key === undefined) continue;
    if (key === RECORDED_OBJECT) {
      // The source's latest span: in a loop, the run of the same iteration.
      const source = sources[n] === '' ? -1 : lastIndexIn(spanIds, spans.count, sources[n]);
      if (source >= 0) (linkedSpan[n] = source), (linkedOutput[n] = outputs[n]), links++;
      continue;
    }
    const text = indexIn(texts, linkable.count, key);
    if (text >= 0) (linkedSpan[n] = textSpans[text]), (linkedOutput[n] = textOutputs[text]), links++;
  }
  return links;
}
