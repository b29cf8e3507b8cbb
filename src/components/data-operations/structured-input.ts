/**
 * The JSON and Table inputs as the operations see them, whatever arrived: values from edges (Data, Message, Table,
 * several of them for Combine and Concatenate) or JSON given in the node, a tweak or a v2 flat input (an object, a
 * list of row objects, JSON text).
 */
import { createData, isData, type DataValue } from '../../values/data.js';
import { isMessage } from '../../values/message.js';
import { createTable, isTable, type TableValue } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { dataRows } from './results.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !('kind' in v && typeof v.kind === 'string');

/** Each JSON input as a Data: a Message gives its fields, a table its rows, JSON text its value. */
export function jsonItems(...values: unknown[]): DataValue[] {
  const items: DataValue[] = [];
  const add = (value: unknown): void => {
    if (value === undefined || value === null || value === '') return;
    if (Array.isArray(value)) value.forEach(add);
    else if (isData(value)) items.push(value);
    else if (isMessage(value)) items.push(createData({ text: value.text, sender: value.sender, sender_name: value.sender_name, session_id: value.session_id }));
    else if (isTable(value)) value.rows.forEach(add);
    else if (isPlainObject(value)) items.push(createData(value));
    else if (typeof value === 'string') add(parseOr(value, () => createData({ text: value })));
    else items.push(createData({ result: value }));
  };
  values.forEach(add);
  return items;
}

/** Each table input: a list of row objects is one table; several tables stay separate (for Concatenate). */
export function tableItems(field: string, ...values: unknown[]): TableValue[] {
  const tables: TableValue[] = [];
  const add = (value: unknown): void => {
    if (value === undefined || value === null || value === '') return;
    if (isTable(value)) tables.push(value);
    else if (Array.isArray(value)) {
      if (value.length > 0 && value.every(isPlainObject)) tables.push(createTable(value));
      else value.forEach(add);
    } else if (isData(value)) tables.push(createTable(dataRows(value)));
    else if (isPlainObject(value)) tables.push(createTable(columnar(value) ?? dataRows(value)));
    else if (typeof value === 'string') add(parseOr(value, () => fail(field, 'text that is not JSON')));
    else fail(field, isMessage(value) ? 'a Message' : typeof value);
  };
  values.forEach(add);
  return tables;
}

/** An object of equal-length arrays is a table by columns (as pandas reads a dict). */
function columnar(object: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const columns = Object.values(object);
  if (columns.length === 0 || !columns.every(Array.isArray)) return undefined;
  const length = (columns[0] as unknown[]).length;
  if (!columns.every((c) => (c as unknown[]).length === length) || columns.every((c) => (c as unknown[]).every(isPlainObject))) return undefined;
  return Array.from({ length }, (_, i) => Object.fromEntries(Object.entries(object).map(([name, cells]) => [name, (cells as unknown[])[i]])));
}

function parseOr(text: string, otherwise: () => unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return otherwise();
  }
}

function fail(field: string, what: string): never {
  throw new ComponentError(`Expected a Table (rows of objects) in ${field}, got ${what}`);
}
