/**
 * Langflow's run-time selection rules (research: components section 2): which input vertices receive the
 * request's input value, and which vertices' results the reply reports.
 */
import { isInputVertex, isOutputVertex, type FlowGraph, type GraphVertex } from './graph.js';

/** `chat` picks Chat Inputs, `text` every Text Input, `any` all inputs (by id, as Langflow, or by type). */
const matches = (vertex: GraphVertex, kind: string) =>
  vertex.id.toLowerCase().includes(kind) || vertex.component.type.toLowerCase().includes(kind);

export function inputVertices(graph: FlowGraph, inputType: string): GraphVertex[] {
  const kind = inputType.toLowerCase();
  return graph.order.map((id) => graph.vertices.get(id)!).filter((v) => isInputVertex(v) && (kind === 'any' || matches(v, kind)));
}

/** Reported vertices in node order: one named component, every vertex (`debug`), or the matching outputs. */
export function outputVertices(graph: FlowGraph, outputType: string, outputComponent?: string): string[] {
  if (outputComponent) return graph.vertices.has(outputComponent) ? [outputComponent] : [];
  const kind = outputType.toLowerCase();
  if (kind === 'debug') return [...graph.order];
  return graph.order.filter((id) => {
    const vertex = graph.vertices.get(id)!;
    return isOutputVertex(vertex) && (kind === 'any' || matches(vertex, kind));
  });
}
