/**
 * What an operation produces and how that becomes the component's outputs. Each operation has natural outputs
 * (Word Count: JSON; Text Join: Text and Message; Text to DataFrame: Table; other Text operations: Message; JSON
 * operations: JSON; Table operations: Table). An edge may still take another output, and then the result is
 * converted the way Langflow's unified component converts it (a dict to indented JSON text, a list to lines, ...).
 */
import { createData, isData, type DataValue } from '../../values/data.js';
import { createMessage } from '../../values/message.js';
import { createTable, type TableValue } from '../../values/table.js';
import type { OutputSpec } from '../contract.js';
import { pythonRepr } from './python-repr.js';

export type OpResult =
  | { kind: 'text'; text: string }
  /** Text Join: offered as Text and as Message. */
  | { kind: 'joined'; text: string }
  /** Text Extract: one line per item in a Message. */
  | { kind: 'items'; items: unknown[] }
  | { kind: 'json'; data: DataValue }
  | { kind: 'table'; table: TableValue };

export const OUTPUTS: OutputSpec[] = [
  { name: 'message', displayName: 'Message', types: ['Message'], method: 'get_message' },
  { name: 'text', displayName: 'Text', types: ['Message'], method: 'get_text' },
  { name: 'data_output', displayName: 'JSON', types: ['Data'], method: 'get_data' },
  { name: 'dataframe', displayName: 'Table', types: ['DataFrame'], method: 'get_dataframe' },
  // The output names of the older components, so that their edges still connect.
  { name: 'data', displayName: 'JSON', types: ['Data'], method: 'get_data' },
  { name: 'output', displayName: 'Table', types: ['DataFrame'], method: 'perform_operation' },
];

const NATURAL: Readonly<Record<OpResult['kind'], readonly string[]>> = {
  text: ['message'],
  joined: ['text', 'message'],
  items: ['message'],
  json: ['data_output'],
  table: ['dataframe'],
};

/**
 * The outputs to return. A vertex without outgoing edges is asked for every output; it then reports only the
 * natural ones (as a Langflow node, whose outputs follow the chosen operation, would).
 */
export function outputsOf(result: OpResult, requested: ReadonlySet<string>): Record<string, unknown> {
  const everything = OUTPUTS.every((o) => requested.has(o.name));
  const names = everything ? NATURAL[result.kind] : [...requested];
  const outputs: Record<string, unknown> = {};
  for (const name of names) {
    if (name === 'message' || name === 'text') outputs[name] = createMessage({ text: asText(result) });
    else if (name === 'data_output' || name === 'data') outputs[name] = asData(result);
    else if (name === 'dataframe' || name === 'output') outputs[name] = asTable(result);
  }
  return outputs;
}

function asText(result: OpResult): string {
  switch (result.kind) {
    case 'text':
    case 'joined':
      return result.text;
    case 'items':
      return result.items.map((item) => (typeof item === 'string' ? item : pythonRepr(item))).join('\n');
    case 'json':
      return JSON.stringify(result.data.data, null, 2);
    case 'table':
      return JSON.stringify(result.table.rows, null, 2);
  }
}

function asData(result: OpResult): DataValue {
  switch (result.kind) {
    case 'json':
      return result.data;
    case 'items':
      return createData({ items: result.items });
    case 'table':
      return createData({ items: result.table.rows });
    default:
      return createData({ result: result.text });
  }
}

function asTable(result: OpResult): TableValue {
  if (result.kind === 'table') return result.table;
  if (result.kind === 'json') return createTable(dataRows(result.data));
  return createTable([]);
}

/** Langflow's Data.to_dataframe: a single key holding a list of objects gives those rows, else one row. */
export function dataRows(data: DataValue | Record<string, unknown>): Record<string, unknown>[] {
  const object = isData(data) ? data.data : data;
  const values = Object.values(object);
  if (values.length === 1 && Array.isArray(values[0]) && values[0].every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))) {
    return values[0] as Record<string, unknown>[];
  }
  return [object];
}
