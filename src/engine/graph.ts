/**
 * The internal graph a run executes: vertices bound to registered components, with their field values, and
 * edges from a named output to a named field. Built once per flow version by src/langflow (the only place that
 * reads Langflow JSON); nothing here knows Langflow shapes.
 */
import type { ComponentDefinition } from '../components/contract.js';

export interface GraphVertex {
  id: string;
  /** The component key the node asked for (may be an alias of `component.type`). */
  type: string;
  displayName: string;
  component: ComponentDefinition;
  /** Field values from the node, by field name (edges override them at run time). */
  params: Readonly<Record<string, unknown>>;
  /** Fields whose value is the name of a global variable to resolve at run time. */
  variableFields: ReadonlySet<string>;
  /** Undeclared fields of the node (dynamic components). */
  dynamicFields: readonly string[];
}

export interface GraphEdge {
  source: string;
  sourceOutput: string;
  target: string;
  targetField: string;
}

export interface FlowGraph {
  vertices: ReadonlyMap<string, GraphVertex>;
  /** Vertex ids in the flow's node order (outputs are reported in this order). */
  order: readonly string[];
  edges: readonly GraphEdge[];
  /**
   * Loop edges: a vertex's output fed back into a loop vertex's loop output (`targetField` names that output). Kept
   * apart from `edges`, so that the graph they leave is acyclic and everything that walks it stays as it is; only
   * the loop planning (loops.ts) reads them.
   */
  loopEdges?: readonly GraphEdge[];
  incoming: ReadonlyMap<string, readonly GraphEdge[]>;
  outgoing: ReadonlyMap<string, readonly GraphEdge[]>;
}

export function indexEdges(vertexIds: Iterable<string>, edges: readonly GraphEdge[]) {
  const incoming = new Map<string, GraphEdge[]>();
  const outgoing = new Map<string, GraphEdge[]>();
  for (const id of vertexIds) {
    incoming.set(id, []);
    outgoing.set(id, []);
  }
  for (const edge of edges) {
    incoming.get(edge.target)!.push(edge);
    outgoing.get(edge.source)!.push(edge);
  }
  return { incoming, outgoing };
}

/** Input vertices receive the run's input value; output vertices are reported in the reply. */
const INPUT_TYPES = new Set(['ChatInput', 'TextInput', 'Webhook']);
const OUTPUT_TYPES = new Set(['ChatOutput', 'TextOutput', 'DataOutput']);

/** Components whose `input_value` the run's input fills. */
export const isInputType = (type: string) => INPUT_TYPES.has(type);
export const isInputVertex = (v: GraphVertex) => isInputType(v.component.type);
export const isOutputVertex = (v: GraphVertex) => OUTPUT_TYPES.has(v.component.type);
