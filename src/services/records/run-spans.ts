/**
 * A run's spans, one per component execution, from what the lifecycle already has: the graph, the request's field
 * values, each vertex's outputs and duration, and the moment each vertex ended (the job's). Inputs are
 * what reached the vertex along edges plus what the request set on it (password fields left out: a run's request
 * may carry keys); model spans name their model and carry the usage their call reported.
 */
import type { JobInput } from '../../../actors/job.actor.js';
import type { SpanRecord, TokenCounts } from '../../../protocol/trace.schema.js';
import type { VertexRepeat } from '../../engine/execution-result.js';
import type { GraphEdge, GraphVertex } from '../../engine/graph.js';
import type { RunResult } from '../../runs/run-adapter.js';
import { isLanguageModel } from '../../values/language-model.js';
import { isMessage } from '../../values/message.js';
import { recordedFields, recordedValue } from './recorded-value.js';

/** When each vertex ended (epoch ms), in the order they did, and when the run started executing. */
export interface RunTimings {
  startedAt: number;
  ends: ReadonlyMap<string, number>;
}

export function runSpans(job: JobInput, timings: RunTimings, result: RunResult, endedAt: number): SpanRecord[] {
  const spans: SpanRecord[] = [];
  // Each vertex's outputs as recorded: an edge's value is recorded once, for its source, and its target's input is
  // that same value (the store writes it once).
  const recorded = new Map<string, Record<string, unknown>>();
  for (const run of vertexRuns(timings, result)) {
    const vertex = job.graph.vertices.get(run.vertexId);
    if (!vertex) continue;
    const { outputs, durationMs: latencyMs } = run;
    const model = modelOf(vertex, outputs);
    const recordedOutputs = recordedFields(outputs);
    recorded.set(run.vertexId, recordedOutputs);
    spans.push({
      vertexId: run.vertexId,
      targetId: targetOf(job, run.vertexId),
      name: vertex.displayName,
      componentType: vertex.type,
      startedAt: run.endedAt - latencyMs,
      latencyMs,
      status: 'ok',
      inputs: inputsOf(vertex, job, result, recorded),
      outputs: recordedOutputs,
      error: null,
      model: model.name,
      tokens: model.tokens,
    });
  }
  const failure = result.failure;
  if (failure?.kind === 'component') {
    const vertex = job.graph.vertices.get(failure.vertexId);
    if (vertex) {
      const startedAt = failedVertexStart(job, timings, vertex.id);
      const params = vertex.params as Record<string, unknown>;
      spans.push({
        vertexId: vertex.id,
        targetId: targetOf(job, vertex.id),
        name: vertex.displayName,
        componentType: vertex.type,
        startedAt,
        latencyMs: Math.max(0, endedAt - startedAt),
        status: 'error',
        inputs: inputsOf(vertex, job, result, recorded),
        outputs: {},
        error: failure.error.message,
        model: typeof params.model_name === 'string' ? params.model_name : null,
        tokens: null,
      });
    }
  }
  return spans;
}

/**
 * Every run of a vertex in the order they ended: the last run of each (`ends`) merged with the earlier runs of
 * those that ran again (a loop's body: a span per iteration). Without repeats, just `ends`.
 */
export function vertexRuns(timings: RunTimings, result: RunResult): VertexRepeat[] {
  const runs: VertexRepeat[] = [];
  const repeats = result.repeats ?? [];
  let next = 0;
  for (const [vertexId, endedAt] of timings.ends) {
    while (next < repeats.length && repeats[next]!.endedAt <= endedAt) runs.push(repeats[next++]!);
    runs.push({ vertexId, endedAt, durationMs: result.durations.get(vertexId) ?? 0, outputs: result.results.get(vertexId) ?? {} });
  }
  while (next < repeats.length) runs.push(repeats[next++]!);
  return runs;
}

/** The failed vertex reported no duration: it started once the last of its sources ended. */
export function failedVertexStart(job: JobInput, timings: RunTimings, vertexId: string): number {
  let startedAt = timings.startedAt;
  for (const edge of job.graph.incoming.get(vertexId) ?? NO_EDGES) startedAt = Math.max(startedAt, timings.ends.get(edge.source) ?? timings.startedAt);
  return startedAt;
}

export const targetOf = (job: JobInput, vertexId: string): string | null => job.graph.outgoing.get(vertexId)?.[0]?.target ?? null;

function inputsOf(vertex: GraphVertex, job: JobInput, result: RunResult, recorded: Map<string, Record<string, unknown>>): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  const fields = vertex.component.fields;
  const own = job.overrides.get(vertex.id);
  for (const field in own) {
    if (fields[field]?.password) continue;
    inputs[field] = recordedValue(own[field]);
  }
  for (const edge of job.graph.incoming.get(vertex.id) ?? NO_EDGES) {
    const value = result.results.get(edge.source)?.[edge.sourceOutput];
    if (value !== undefined) inputs[edge.targetField] = recorded.get(edge.source)?.[edge.sourceOutput] ?? recordedValue(value);
  }
  return inputs;
}

const NO_EDGES: readonly GraphEdge[] = [];

/** The model a vertex called and its usage. */
export interface ModelUse {
  name: string | null;
  tokens: TokenCounts | null;
}

export function modelOf(vertex: GraphVertex, outputs: Record<string, unknown>): ModelUse {
  return readModel(vertex, outputs, { name: null, tokens: null });
}

/** `modelOf` into `into` (the row writer reuses one): from the reply the vertex made itself, or the model it built. */
export function readModel(vertex: GraphVertex, outputs: Record<string, unknown>, into: ModelUse): ModelUse {
  into.name = null;
  into.tokens = null;
  for (const output in outputs) {
    const value = outputs[output];
    if (isLanguageModel(value)) into.name ??= value.model;
    if (!isMessage(value) || value.properties.source?.id !== vertex.id) continue;
    const usage = value.properties.usage;
    if (usage) into.tokens = { input: usage.prompt_tokens, output: usage.completion_tokens, total: usage.total_tokens };
    if (usage || value.properties.source.source) into.name ??= value.properties.source.source ?? null;
  }
  return into;
}
