/** Langflow's RunResponse for /api/v1/run (research: run API section 2), built from a finished job. */
import type { ExecutionResult } from '../engine/execution-result.js';
import type { FlowGraph } from '../engine/graph.js';
import { isMessage } from '../values/message.js';
import { SERIALIZATION_MAX_TEXT_LENGTH } from './config-response.js';
import { messageResult, outputView, resultValue } from './message-dict.js';

export interface RunResponse {
  session_id: string;
  outputs: { inputs: Record<string, unknown>; outputs: Record<string, unknown>[] }[];
}

export function runResponse(graph: FlowGraph, outcome: Pick<ExecutionResult, 'results' | 'durations'>, selected: readonly string[], sessionId: string, inputs: Record<string, unknown>): RunResponse {
  const built = selected.filter((id) => outcome.results.has(id));
  return { session_id: sessionId, outputs: [{ inputs, outputs: built.map((id) => resultData(graph, id, outcome)) }] };
}

function resultData(graph: FlowGraph, vertexId: string, outcome: Pick<ExecutionResult, 'results' | 'durations'>): Record<string, unknown> {
  const vertex = graph.vertices.get(vertexId)!;
  const values = outcome.results.get(vertexId)!;
  const results: Record<string, unknown> = {};
  const artifacts: Record<string, unknown> = {};
  const outputs: Record<string, unknown> = {};
  const logs: Record<string, unknown[]> = {};
  const messages: Record<string, unknown>[] = [];
  for (const name in values) {
    const value = values[name];
    if (value === undefined) continue;
    const view = outputView(value);
    if (isMessage(value)) {
      results[name] = messageResult(value, vertexId);
      messages.push({ message: value.text, sender: value.sender, sender_name: value.sender_name, session_id: value.session_id, stream_url: null, component_id: vertexId, files: value.files, type: 'text' });
    } else {
      results[name] = resultValue(value);
    }
    // `repr` and `raw` are display copies of what `results`, `outputs` and `messages` already carry in full: cut at
    // Langflow's serialisation length, so a large value is not written out seven times (1 MB in gave 7.3 MB out).
    const shown = displayCopy(view.message);
    artifacts[name] = { repr: shown, raw: shown, type: view.type };
    outputs[name] = view;
    logs[name] = [];
  }
  const seconds = (outcome.durations.get(vertexId) ?? 0) / 1000;
  return {
    results,
    artifacts,
    outputs,
    logs,
    messages,
    timedelta: seconds,
    duration: `${Math.round(seconds * 1000)} ms`,
    component_display_name: vertex.displayName,
    component_id: vertexId,
    used_frozen_result: false,
  };
}

function displayCopy(value: unknown): unknown {
  return typeof value === 'string' && value.length > SERIALIZATION_MAX_TEXT_LENGTH ? `${value.slice(0, SERIALIZATION_MAX_TEXT_LENGTH)}...` : value;
}
