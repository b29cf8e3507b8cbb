/**
 * The v2 `inputs` map (Langflow's "flat inputs"): `<component_id>.<param>` -> value, split at the first dot.
 * Values become per-vertex overrides on the flow's cached graph (cast as template values are), so a run with
 * inputs does not rebuild the graph; file fields alone go through the flow JSON as tweaks (they carry paths).
 * The first `*.session_id` value is the run's session, as in Langflow.
 */
import type { FlowGraph, GraphVertex } from '../engine/graph.js';
import { ValidationError } from '../errors/index.js';
import { paramOf } from './template-params.js';
import type { Tweaks } from './tweaks.js';

export interface FlatInputs {
  overrides: Map<string, Record<string, unknown>>;
  tweaks: Tweaks;
  sessionId?: string;
}

const SCALAR_TYPES = new Set(['int', 'float', 'slider', 'bool']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseFlatInputs(graph: FlowGraph, inputs: Record<string, unknown> | null | undefined): FlatInputs {
  const result: FlatInputs = { overrides: new Map(), tweaks: {} };
  const byName = new Map<string, GraphVertex>();
  for (const vertex of graph.vertices.values()) if (!byName.has(vertex.displayName)) byName.set(vertex.displayName, vertex);

  const vertexFor = (key: string, id: string): GraphVertex => {
    const vertex = graph.vertices.get(id) ?? byName.get(id);
    if (!vertex) throw ValidationError.single(['body', 'inputs', key], `Unknown component '${id}': the flow has no component with this id`, 'unknown_component');
    return vertex;
  };

  const set = (vertex: GraphVertex, param: string, value: unknown) => {
    if (param === 'session_id' && result.sessionId === undefined && typeof value === 'string' && value !== '') result.sessionId = value;
    const spec = vertex.component.fields[param];
    if (spec?.type === 'file') {
      result.tweaks[vertex.id] = { ...(result.tweaks[vertex.id] as Record<string, unknown> | undefined), [param]: value };
      return;
    }
    // Numbers and booleans are cast as template values are; anything else is taken as the JSON given (a handle
    // such as Data Operations' `df` takes rows, a list field takes a list).
    const cast = spec && SCALAR_TYPES.has(spec.type) ? paramOf({ value, show: true, type: spec.type }, spec) : { kind: 'value' as const, value };
    if (cast.kind !== 'value') return;
    result.overrides.set(vertex.id, { ...result.overrides.get(vertex.id), [param]: cast.value });
  };

  for (const [key, value] of Object.entries(inputs ?? {})) {
    const dot = key.indexOf('.');
    if (dot > 0 && dot < key.length - 1) {
      set(vertexFor(key, key.slice(0, dot)), key.slice(dot + 1), value);
    } else if (dot === -1 && isObject(value)) {
      // Langflow also takes a whole component's parameters under its bare id.
      const vertex = vertexFor(key, key);
      for (const [param, paramValue] of Object.entries(value)) set(vertex, param, paramValue);
    } else {
      throw ValidationError.single(['body', 'inputs', key], 'Input keys have the form <component_id>.<param_name>', 'value_error');
    }
  }
  return result;
}
