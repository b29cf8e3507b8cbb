/**
 * A flow tool's input schema as Langflow builds it (json_schema_from_flow): every visible, non-advanced field of the
 * flow's input components becomes a property. A node's stored template decides what is visible (an export carries
 * `show`/`advanced`/`info`); where it says nothing, the component's own field definition does.
 */
import type { FieldSpec } from '../components/contract.js';
import type { FlowGraph } from '../engine/graph.js';
import { isInputVertex } from '../engine/graph.js';

export interface ToolInputSchema {
  [key: string]: unknown;
  type: 'object';
  properties: Record<string, { type: string; description: string; items?: { type: string } }>;
  required: string[];
}

const JSON_TYPES: Record<string, string> = { str: 'string', int: 'integer', float: 'number', bool: 'boolean' };

type StoredField = { show?: unknown; advanced?: unknown; info?: unknown; type?: unknown; required?: unknown; list?: unknown };

export function toolInputSchema(graph: FlowGraph, flowData: unknown): ToolInputSchema {
  const templates = storedTemplates(flowData);
  const schema: ToolInputSchema = { type: 'object', properties: {}, required: [] };
  for (const id of graph.order) {
    const vertex = graph.vertices.get(id)!;
    if (!isInputVertex(vertex)) continue;
    const stored = templates.get(id) ?? {};
    const fields = vertex.component.fields as Record<string, FieldSpec>;
    for (const name of Object.keys(fields)) {
      const field = { ...attributesOf(fields[name]), ...definedOf(stored[name]) };
      if (field.show === false || field.advanced === true) continue;
      const type = JSON_TYPES[String(field.type)] ?? 'string';
      const description = typeof field.info === 'string' && field.info ? field.info : `Input for ${name}`;
      schema.properties[name] = field.list === true ? { type: 'array', description, items: { type } } : { type, description };
      if (field.required === true && !schema.required.includes(name)) schema.required.push(name);
    }
  }
  return schema;
}

function attributesOf(spec: FieldSpec): StoredField {
  return { show: spec.show, advanced: spec.advanced, info: spec.info, type: spec.type, required: spec.required, list: spec.list };
}

/** The attributes a stored template field sets (undefined ones leave the definition's). */
function definedOf(field: unknown): StoredField {
  if (typeof field !== 'object' || field === null) return {};
  const out: Record<string, unknown> = {};
  for (const key of ['show', 'advanced', 'info', 'type', 'required', 'list'] as const) {
    const value = (field as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

/** Each node's template, by node id, from a flow's Langflow JSON. */
function storedTemplates(flowData: unknown): Map<string, Record<string, unknown>> {
  const templates = new Map<string, Record<string, unknown>>();
  const nodes = (flowData as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return templates;
  for (const node of nodes as { id?: unknown; data?: { node?: { template?: unknown } } }[]) {
    const template = node?.data?.node?.template;
    if (typeof node?.id === 'string' && typeof template === 'object' && template !== null) templates.set(node.id, template as Record<string, unknown>);
  }
  return templates;
}
