/**
 * The `outputs` of a v2 reply: one ComponentOutput per terminal vertex (no successors) that ran. The type comes
 * from the value produced (message, data, dataframe, text), else from the component's first declared output type.
 */
import type { ComponentOutput } from '../../../protocol/workflow.schema.js';
import type { ExecutionResult } from '../../engine/execution-result.js';
import type { FlowGraph, GraphVertex } from '../../engine/graph.js';
import { isData } from '../../values/data.js';
import { isMessage } from '../../values/message.js';
import { isTable } from '../../values/table.js';

export function terminalVertices(graph: FlowGraph): GraphVertex[] {
  return graph.order.map((id) => graph.vertices.get(id)!).filter((vertex) => (graph.outgoing.get(vertex.id)?.length ?? 0) === 0);
}

export function componentOutputs(graph: FlowGraph, outcome: Pick<ExecutionResult, 'results'>): Record<string, ComponentOutput> {
  const outputs: Record<string, ComponentOutput> = {};
  for (const vertex of terminalVertices(graph)) {
    const results = outcome.results.get(vertex.id);
    if (!results) continue;
    outputs[vertex.id] = componentOutput(vertex, results);
  }
  return outputs;
}

export function componentOutput(vertex: GraphVertex, results: Record<string, unknown>): ComponentOutput {
  const declared = vertex.component.outputs;
  const value = declared.map((output) => results[output.name]).find((v) => v !== undefined);
  const fallbackType = (declared[0]?.types[0] ?? vertex.type).toLowerCase();
  const { type, content } = contentOf(value, fallbackType);
  return {
    type,
    status: 'completed',
    content,
    metadata: { component_type: vertex.type, display_name: vertex.displayName },
    component_id: vertex.id,
  };
}

function contentOf(value: unknown, fallbackType: string): { type: string; content: unknown } {
  if (isMessage(value)) return { type: 'message', content: value.text };
  if (isData(value)) return { type: 'data', content: value.data };
  if (isTable(value)) return { type: 'dataframe', content: value.rows };
  if (typeof value === 'string') return { type: 'text', content: value };
  if (value === undefined || typeof value === 'function') return { type: fallbackType, content: null };
  // Models, tools and other live objects are not content; plain JSON values are.
  return { type: fallbackType, content: isPlainJson(value) ? value : null };
}

function isPlainJson(value: unknown): boolean {
  if (value === null || ['number', 'boolean', 'string'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.values(value as object).every(isPlainJson);
}
