/**
 * A vertex's inputs at run time: node values, then run overrides (input_value, session_id), then edge values;
 * variables resolved; each value coerced by what its field accepts and validated by its schema.
 */
import { ComponentError } from '../components/component.error.js';
import type { Accepts, FieldSpec } from '../components/contract.js';
import { toData, toMessage, toText } from '../values/coerce.js';
import type { GraphVertex } from './graph.js';
import type { VariableResolver } from './variables.js';

export interface ResolvedInputs {
  inputs: Record<string, unknown>;
  dynamic: Record<string, unknown>;
}

/**
 * Parsed node values, per vertex and field, for fields whose value comes from the node itself: field schemas and
 * coercions are pure, so such a value parses the same on every run of the (cached) graph. Only primitive results
 * are kept, so no run can change what the next one gets.
 */
const nodeValues = new WeakMap<GraphVertex, Map<string, unknown>>();

const isPrimitive = (value: unknown) => value === null || (typeof value !== 'object' && typeof value !== 'function');

export async function resolveInputs(
  vertex: GraphVertex,
  edgeValues: Record<string, unknown>,
  overrides: Record<string, unknown> | undefined,
  variables: VariableResolver,
): Promise<ResolvedInputs> {
  const merged: Record<string, unknown> = { ...vertex.params, ...overrides, ...edgeValues };
  // Own properties only: a field named `constructor` or `toString` must not find Object.prototype's function.
  const given = (name: string) => Object.hasOwn(edgeValues, name) || (overrides !== undefined && Object.hasOwn(overrides, name));
  for (const field of vertex.variableFields) {
    if (given(field)) continue;
    merged[field] = await variables.resolve(String(vertex.params[field]));
  }

  let known = nodeValues.get(vertex);
  if (!known) nodeValues.set(vertex, (known = new Map()));
  const inputs: Record<string, unknown> = {};
  const fields = vertex.component.fields;
  for (const name in fields) {
    const fromNode = !given(name) && !vertex.variableFields.has(name);
    if (fromNode && known.has(name)) {
      inputs[name] = known.get(name);
      continue;
    }
    const spec = fields[name];
    const value = Object.hasOwn(merged, name) ? merged[name] : undefined;
    const parsed = spec.schema.safeParse(value === undefined ? undefined : coerce(spec, value));
    if (!parsed.success) {
      const reason = parsed.error.issues[0]?.message ?? 'invalid value';
      throw new ComponentError(`Field "${spec.displayName}" (${name}): ${reason}`);
    }
    inputs[name] = parsed.data;
    if (fromNode && isPrimitive(parsed.data)) known.set(name, parsed.data);
  }

  const dynamic: Record<string, unknown> = {};
  const dynamicAccepts = vertex.component.dynamicFields;
  if (dynamicAccepts) for (const name of vertex.dynamicFields) dynamic[name] = coerceAs(dynamicAccepts, Object.hasOwn(merged, name) ? merged[name] : undefined);
  return { inputs, dynamic };
}

function coerce(spec: FieldSpec, value: unknown): unknown {
  if (spec.list && Array.isArray(value)) return value.map((item) => coerceAs(spec.accepts, item));
  return coerceAs(spec.accepts, value);
}

function coerceAs(accepts: Accepts, value: unknown): unknown {
  switch (accepts) {
    case 'text':
      return value === undefined ? '' : toText(value);
    case 'message':
      return value === undefined || value === '' ? undefined : toMessage(value);
    case 'data':
      return value === undefined ? undefined : toData(value);
    default:
      return value;
  }
}
