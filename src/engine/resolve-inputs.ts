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

export async function resolveInputs(
  vertex: GraphVertex,
  edgeValues: Record<string, unknown>,
  overrides: Record<string, unknown> | undefined,
  variables: VariableResolver,
): Promise<ResolvedInputs> {
  const merged: Record<string, unknown> = { ...vertex.params, ...overrides, ...edgeValues };
  for (const field of vertex.variableFields) {
    if (field in edgeValues || (overrides && field in overrides)) continue;
    merged[field] = await variables.resolve(String(vertex.params[field]));
  }

  const inputs: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(vertex.component.fields)) {
    const value = merged[name];
    const parsed = spec.schema.safeParse(value === undefined ? undefined : coerce(spec, value));
    if (!parsed.success) {
      const reason = parsed.error.issues[0]?.message ?? 'invalid value';
      throw new ComponentError(`Field "${spec.displayName}" (${name}): ${reason}`);
    }
    inputs[name] = parsed.data;
  }

  const dynamic: Record<string, unknown> = {};
  const dynamicAccepts = vertex.component.dynamicFields;
  if (dynamicAccepts) for (const name of vertex.dynamicFields) dynamic[name] = coerceAs(dynamicAccepts, merged[name]);
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
