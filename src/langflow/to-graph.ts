/**
 * Langflow flow JSON -> the engine's FlowGraph. Every problem that would stop a run is a FlowInvalidError naming the
 * node: nodes that cannot run here (unknown types, types we do not run, custom code not allowed) all at once, in one
 * FlowUnsupportedError; then an edge to a missing node, or a handle naming an output or field that does not exist.
 */
import type { ComponentDefinition } from '../components/contract.js';
import { findComponent } from '../components/registry.js';
import { indexEdges, type FlowGraph, type GraphEdge, type GraphVertex } from '../engine/graph.js';
import { FlowInvalidError, FlowUnsupportedError, type UnrunnableNode } from '../errors/index.js';
import { customComponentOf, nodeCode, type CustomComponentSource } from './custom-node.js';
import { FlowEdge, FlowJsonData, FlowNode, isComponentNode, TemplateField } from './flow-json.js';
import { paramOf } from './template-params.js';

/** A flow's `data`, given either that or a whole flow object holding `data`. */
const dataOf = (flowData: unknown) => (isObject(flowData) && isObject(flowData.data) && !Array.isArray(flowData.nodes) ? flowData.data : flowData);

/** The nodes of a flow that cannot run here; none for data that is not a flow at all (a run says what is wrong). */
export function unrunnableNodes(flowData: unknown, customs?: CustomComponentSource): UnrunnableNode[] {
  const parsed = FlowJsonData.safeParse(dataOf(flowData) ?? {});
  const found: UnrunnableNode[] = [];
  for (const raw of parsed.success ? parsed.data.nodes : []) {
    const node = FlowNode.safeParse(raw);
    if (!node.success || !isComponentNode(node.data)) continue;
    const component = componentOf(node.data, customs);
    if ('reason' in component) found.push(component);
  }
  return found;
}

/** Builds the graph of a flow's `data` (or a whole flow object holding `data`); `customs` runs custom code nodes. */
export function toGraph(flowData: unknown, customs?: CustomComponentSource): FlowGraph {
  const parsed = FlowJsonData.safeParse(dataOf(flowData) ?? {});
  if (!parsed.success) throw new FlowInvalidError('Flow data must be an object with "nodes" and "edges" lists');

  const vertices = new Map<string, GraphVertex>();
  const order: string[] = [];
  const skipped = new Set<string>();
  const unrunnable: UnrunnableNode[] = [];
  for (const raw of parsed.data.nodes) {
    const node = FlowNode.safeParse(raw);
    if (!node.success) throw new FlowInvalidError('A node has no "id"');
    if (!isComponentNode(node.data)) {
      skipped.add(node.data.id);
      continue;
    }
    if (vertices.has(node.data.id)) throw new FlowInvalidError(`Node ${node.data.id} appears twice`, node.data.id);
    const component = componentOf(node.data, customs);
    if ('reason' in component) unrunnable.push(component);
    else {
      vertices.set(node.data.id, toVertex(node.data, component));
      order.push(node.data.id);
    }
  }
  if (unrunnable.length > 0) throw new FlowUnsupportedError(unrunnable);

  const edges: GraphEdge[] = [];
  const loopEdges: GraphEdge[] = [];
  for (const raw of parsed.data.edges) {
    const edge = toEdge(raw, vertices, skipped);
    if (edge?.loop) loopEdges.push(edge.loop);
    else if (edge) edges.push(edge);
  }
  return { vertices, order, edges, ...(loopEdges.length ? { loopEdges } : {}), ...indexEdges(order, edges) };
}

/** The node's component, or the node as one that cannot run here and why. */
export function componentOf(node: FlowNode, customs: CustomComponentSource | undefined): ComponentDefinition | UnrunnableNode {
  const type = node.data!.type!;
  const native = findComponent(type);
  if (native) return native;
  const custom = customComponentOf(type, nodeCode(node.data?.node?.template ?? {}), customs);
  if ('component' in custom) return custom.component;
  return { id: node.id, type, display_name: node.data?.node?.display_name ?? type, reason: custom.reason };
}

function toVertex(node: FlowNode, component: ComponentDefinition): GraphVertex {
  const type = node.data!.type!;
  const template = node.data?.node?.template ?? {};
  const params: Record<string, unknown> = {};
  const variableFields = new Set<string>();
  const dynamicFields: string[] = [];
  for (const [name, rawField] of Object.entries(template)) {
    if (name === '_type' || name === 'code' || !isObject(rawField)) continue;
    const spec = Object.hasOwn(component.fields, name) ? component.fields[name] : undefined;
    if (!spec && !component.dynamicFields) continue;
    if (!spec) dynamicFields.push(name);
    const field = TemplateField.safeParse(rawField);
    if (!field.success) continue;
    const param = paramOf(field.data, spec);
    if (param.kind === 'value') params[name] = param.value;
    else if (param.kind === 'variable') {
      params[name] = param.name;
      variableFields.add(name);
    }
  }
  return {
    id: node.id,
    type,
    displayName: node.data?.node?.display_name ?? component.displayName,
    component,
    params,
    variableFields,
    dynamicFields,
  };
}

function toEdge(raw: unknown, vertices: Map<string, GraphVertex>, skipped: Set<string>): (GraphEdge & { loop?: undefined }) | { loop: GraphEdge } | undefined {
  const parsed = FlowEdge.safeParse(raw);
  const edge = parsed.success ? parsed.data : {};
  const label = edge.id ?? `${edge.source ?? '?'} -> ${edge.target ?? '?'}`;
  const sourceHandle = edge.data?.sourceHandle;
  const targetHandle = edge.data?.targetHandle;
  const sourceId = sourceHandle?.id ?? edge.source;
  const targetId = targetHandle?.id ?? edge.target;
  if (sourceId && targetId && (skipped.has(sourceId) || skipped.has(targetId))) return undefined;
  if (sourceHandle?.name && targetHandle && !targetHandle.fieldName && targetHandle.name && sourceId && targetId) {
    return { loop: loopEdge(label, sourceId, sourceHandle.name, targetId, targetHandle.name, vertices) };
  }
  if (!sourceHandle?.name || !targetHandle || !sourceId || !targetId) {
    throw new FlowInvalidError(`Edge ${label} has invalid handles: it needs data.sourceHandle {id, name} and data.targetHandle {id, fieldName}`, targetId ?? sourceId);
  }
  const source = vertices.get(sourceId);
  if (!source) throw new FlowInvalidError(`Edge ${label} starts at missing node "${sourceId}"`, sourceId);
  const target = vertices.get(targetId);
  if (!target) throw new FlowInvalidError(`Edge ${label} ends at missing node "${targetId}"`, targetId);
  if (!targetHandle.fieldName) {
    throw new FlowInvalidError(`Edge ${label} has invalid handles: its data.targetHandle names neither a field (fieldName) nor a loop output (name)`, targetId);
  }
  if (!source.component.outputs.some((o) => o.name === sourceHandle.name)) {
    throw new FlowInvalidError(`Node ${sourceId} (${source.type}) has no output "${sourceHandle.name}"; it has ${names(source.component.outputs.map((o) => o.name))}`, sourceId);
  }
  if (!acceptsField(target, targetHandle.fieldName)) {
    throw new FlowInvalidError(`Node ${targetId} (${target.type}) has no field "${targetHandle.fieldName}"`, targetId);
  }
  return { source: sourceId, sourceOutput: sourceHandle.name, target: targetId, targetField: targetHandle.fieldName };
}

/** A loop edge: from a vertex's output back into a loop output of a loop vertex (Langflow marks it by a target handle naming an output). */
function loopEdge(label: string, sourceId: string, sourceOutput: string, targetId: string, targetOutput: string, vertices: Map<string, GraphVertex>): GraphEdge {
  const source = vertices.get(sourceId);
  if (!source) throw new FlowInvalidError(`Loop edge ${label} starts at missing node "${sourceId}"`, sourceId);
  const target = vertices.get(targetId);
  if (!target) throw new FlowInvalidError(`Loop edge ${label} from ${source.displayName} (${sourceId}) ends at missing node "${targetId}"`, sourceId);
  if (!source.component.outputs.some((o) => o.name === sourceOutput)) {
    throw new FlowInvalidError(`Node ${sourceId} (${source.type}) has no output "${sourceOutput}"; it has ${names(source.component.outputs.map((o) => o.name))}`, sourceId);
  }
  const output = target.component.outputs.find((o) => o.name === targetOutput);
  if (!output?.allowsLoop) {
    throw new FlowInvalidError(`Edge ${label} feeds output "${targetOutput}" of node ${targetId} (${target.type}), which is not a loop output: only a Loop's item output takes a loop edge`, targetId);
  }
  return { source: sourceId, sourceOutput, target: targetId, targetField: targetOutput };
}

function acceptsField(vertex: GraphVertex, field: string): boolean {
  const component: ComponentDefinition = vertex.component;
  if (component.fields[field]) return true;
  if (!component.dynamicFields) return false;
  if (!vertex.dynamicFields.includes(field)) (vertex.dynamicFields as string[]).push(field);
  return true;
}

const names = (list: string[]) => (list.length ? list.map((n) => `"${n}"`).join(', ') : 'none');

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
