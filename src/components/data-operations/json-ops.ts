/** The JSON operations (input `data`; several inputs only for Combine), on the Data's inner object. */
import { createData, type DataValue } from '../../values/data.js';
import { ComponentError } from '../component.error.js';
import type { InputsOf } from '../contract.js';
import { comparer, COMPARISONS, type Comparison } from './compare.js';
import type { DataOperationsFields } from './fields.js';
import { runJq } from './jq-query.js';
import { literalValue } from './literal-eval.js';
import type { JsonOperation } from './operation-names.js';
import { parsePath, walkPath } from './path-selection.js';
import type { OpResult } from './results.js';
import { jsonItems } from './structured-input.js';

type Inputs = InputsOf<DataOperationsFields>;
type JsonObject = Record<string, unknown>;

const FILTER_OPERATORS: readonly Comparison[] = COMPARISONS.filter((c) => c !== 'not contains');

export async function runJsonOperation(operation: JsonOperation, inputs: Inputs, signal: AbortSignal): Promise<OpResult> {
  const items = jsonItems(inputs.data, inputs.data_input);
  if (operation !== 'Combine' && items.length > 1) {
    throw new ComponentError(`${operation} operation is not supported for multiple JSON inputs (data got ${items.length}); connect one, or use Combine first`);
  }
  const data: JsonObject = items[0]?.data ?? {};
  const json = (value: unknown): OpResult => ({ kind: 'json', data: asData(value) });
  switch (operation) {
    case 'Select Keys':
      return json(selectKeys(data, inputs.select_keys_input));
    case 'Literal Eval':
      return { kind: 'json', data: createData(evaluate(data) as JsonObject, items[0]?.text_key) };
    case 'Combine':
      return { kind: 'json', data: items.length === 1 ? items[0] : createData(combine(items)) };
    case 'Filter Values':
      return json(filterValues(data, inputs));
    case 'Append or Update':
      return json({ ...data, ...inputs.append_update_data });
    case 'Remove Keys': {
      const remove = new Set(inputs.remove_keys_input);
      return json(mapKeys(data, (key) => (remove.has(key) ? undefined : key)));
    }
    case 'Rename Keys': {
      const renames = stringMap(inputs.rename_keys_input);
      return json(mapKeys(data, (key) => renames[key] ?? key));
    }
    case 'Path Selection':
      return json(await selectPath(data, items.length, inputs.selected_key, signal));
    case 'JQ Expression':
      return json(await jqExpression(data, inputs.query, signal));
  }
}

/** Objects stay Data; any other value is wrapped as {"result": value} (a list too, as Langflow does). */
function asData(value: unknown): DataValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? createData(value as JsonObject) : createData({ result: value });
}

function selectKeys(data: JsonObject, keys: string[]): unknown {
  if (keys.length === 1 && keys[0] === 'data' && 'data' in data) return data.data;
  const missing = keys.filter((key) => !(key in data));
  if (missing.length > 0) {
    throw new ComponentError(`Select Keys: key(s) ${missing.map((k) => `"${k}"`).join(', ')} not found (select_keys_input). Available keys: ${JSON.stringify(Object.keys(data))}`);
  }
  return Object.fromEntries(Object.entries(data).filter(([key]) => keys.includes(key)));
}

/** Every string that holds a JSON value or a Python literal becomes that value, at any depth. */
function evaluate(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(evaluate);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, evaluate(v)]));
  if (typeof value !== 'string') return value;
  const literal = literalValue(value);
  return literal ? literal.value : value;
}

/** Later inputs add keys; a key seen twice collects its values into a list. */
function combine(items: DataValue[]): JsonObject {
  const combined: JsonObject = {};
  for (const { data } of items) {
    for (const [key, value] of Object.entries(data)) {
      const current = combined[key];
      if (!(key in combined)) combined[key] = value;
      else if (Array.isArray(current)) combined[key] = Array.isArray(value) ? [...current, ...value] : [...current, value];
      else combined[key] = Array.isArray(value) ? [current, ...value] : [current, value];
    }
  }
  return combined;
}

function filterValues(data: JsonObject, inputs: Inputs): JsonObject {
  const operator = inputs.operator as Comparison;
  if (!FILTER_OPERATORS.includes(operator)) {
    throw new ComponentError(`Filter Values: unknown operator "${inputs.operator}" (operator); use one of ${FILTER_OPERATORS.join(', ')}`);
  }
  const conditions = Object.entries(inputs.filter_values).filter(([, expected]) => expected !== null && expected !== undefined);
  const tests = conditions.map(([field, expected]) => ({ field, test: comparer(operator, expected, true) }));
  const result = { ...data };
  for (const key of inputs.filter_key) {
    if (!(key in result)) throw new ComponentError(`Filter Values: filter key "${key}" not found (filter_key). Available keys: ${JSON.stringify(Object.keys(result))}`);
    const list = result[key];
    if (!Array.isArray(list)) throw new ComponentError(`Filter Values: filter key "${key}" (filter_key) is not a list`);
    if (tests.length === 0) continue;
    result[key] = list.filter((item) => typeof item === 'object' && item !== null && !Array.isArray(item) && tests.every(({ field, test }) => field in item && test((item as JsonObject)[field])));
  }
  return result;
}

/** Renames (or, for `undefined`, removes) keys at every depth, inside lists too. */
function mapKeys(value: unknown, rename: (key: string) => string | undefined): JsonObject {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const out: JsonObject = {};
    for (const [key, inner] of Object.entries(v)) {
      const name = rename(key);
      if (name !== undefined) out[name] = walk(inner);
    }
    return out;
  };
  return walk(value) as JsonObject;
}

function stringMap(map: JsonObject): Record<string, string> {
  for (const [from, to] of Object.entries(map)) {
    if (typeof to !== 'string' || to === '') throw new ComponentError(`Rename Keys: the new name for "${from}" must be a non-empty string (rename_keys_input), got ${JSON.stringify(to)}`);
  }
  return map as Record<string, string>;
}

async function selectPath(data: JsonObject, count: number, path: string, signal: AbortSignal): Promise<unknown> {
  if (count === 0) throw new ComponentError('Path Selection needs a JSON input (data)');
  if (path.trim() === '') throw new ComponentError('Path Selection: choose a path in selected_key, such as .user.name or .items[0]');
  const steps = parsePath(path);
  if (steps) return walkPath(data, steps, path);
  const results = await runJq(data, path, { operation: 'Path Selection', field: 'selected_key' }, signal);
  if (results.length === 0) throw new ComponentError(`Path Selection: the path "${path}" (selected_key) selected nothing`);
  return results[0];
}

async function jqExpression(data: JsonObject, query: string, signal: AbortSignal): Promise<unknown> {
  if (query.trim() === '') throw new ComponentError('JQ Expression: the query (query) is required and cannot be blank');
  const results = await runJq(data, query, { operation: 'JQ Expression', field: 'query' }, signal);
  if (results.length === 0) throw new ComponentError(`JQ Expression: no result from the query "${query}" (query)`);
  const result = results.length === 1 ? results[0] : results;
  if (result === null) throw new ComponentError(`JQ Expression: the query "${query}" (query) returned null; check that the path exists in the data`);
  return result;
}
