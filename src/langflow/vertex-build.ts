/**
 * A vertex build as Langflow's editor reads it: the VertexBuildResponse carried by `end_vertex` events (its
 * `data` is a ResultDataResponse) and the `output_meta` beside it; the same data is what a vertex build record
 * keeps. Research: langflow-platform-api.md section 2, `api/v1/schemas.py`.
 */
import type { GraphVertex } from '../engine/graph.js';
import { isOutputVertex } from '../engine/graph.js';
import { outputView, resultValue } from './message-dict.js';

/** Langflow's `params` of a vertex that built (`built_object_repr`). */
export const BUILT_PARAMS = 'Built successfully ✨';

export interface VertexBuildData {
  id: string;
  inactivated_vertices: string[];
  next_vertices_ids: string[];
  top_level_vertices: string[];
  valid: boolean;
  params: string | null;
  data: ResultData;
  timestamp: string;
}

export interface ResultData {
  results: Record<string, unknown>;
  outputs: Record<string, { message: unknown; type: string }>;
  logs: Record<string, unknown[]>;
  message: Record<string, unknown>;
  artifacts: Record<string, unknown>;
  timedelta: number;
  duration: string;
  used_frozen_result: boolean;
}

/** Langflow's `format_elapsed_time`: "15 ms", "1.2 seconds", "2 minutes, 3.4 seconds". */
export function formatElapsed(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) {
    const rounded = Math.round(seconds * 10) / 10;
    return `${rounded} ${rounded === 1 ? 'second' : 'seconds'}`;
  }
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round((seconds - minutes * 60) * 10) / 10;
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, ${rest} ${rest === 1 ? 'second' : 'seconds'}`;
}

/** What a vertex that ran produced, output by output, in ResultData's shape. */
export function builtResult(outputs: Record<string, unknown>, durationMs: number): ResultData {
  const results: Record<string, unknown> = {};
  const views: ResultData['outputs'] = {};
  const logs: ResultData['logs'] = {};
  const artifacts: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(outputs)) {
    if (value === undefined) continue;
    const view = outputView(value);
    results[name] = resultValue(value);
    views[name] = view;
    logs[name] = [];
    artifacts[name] = { repr: typeof view.message === 'string' ? view.message : JSON.stringify(view.message ?? null), raw: view.message, type: view.type };
  }
  return timed({ results, outputs: views, logs, message: artifacts, artifacts, used_frozen_result: false }, durationMs);
}

/** A vertex that failed: its first output carries the error, as Langflow's editor looks for it. */
export function failedResult(vertex: GraphVertex, error: Error, durationMs: number): ResultData {
  const output = vertex.component.outputs[0]?.name ?? 'output';
  const message = { errorMessage: error.message, stackTrace: error.stack ?? '' };
  return timed({ results: {}, outputs: { [output]: { message, type: 'error' } }, logs: {}, message: {}, artifacts: {}, used_frozen_result: false }, durationMs);
}

function timed(data: Omit<ResultData, 'timedelta' | 'duration'>, durationMs: number): ResultData {
  const seconds = durationMs / 1000;
  return { ...data, timedelta: seconds, duration: formatElapsed(seconds) };
}

/** The VertexBuildResponse of a vertex; `next` are the vertices its end made runnable. */
export function vertexBuildData(id: string, valid: boolean, params: string | null, data: ResultData, next: string[]): VertexBuildData {
  return { id, inactivated_vertices: [], next_vertices_ids: next, top_level_vertices: next, valid, params, data, timestamp: new Date().toISOString() };
}

/** `end_vertex`'s `output_meta` (newer Langflow; older editors ignore it). */
export function outputMeta(vertex: GraphVertex, terminal: boolean) {
  return {
    component_id: vertex.id,
    display_name: vertex.displayName || vertex.type,
    vertex_type: vertex.type,
    is_output: isOutputVertex(vertex),
    is_terminal: terminal,
    output_types: vertex.component.outputs[0]?.types ?? [],
  };
}
