/**
 * Conversions between Message, Data and Table as Langflow's Type Convert does them: a Data's text key becomes a
 * Message's text, a table becomes `{results: rows}` as Data, a Data holding one list of objects becomes its rows.
 * `autoParse` reads JSON or CSV out of a text first.
 */
import { createData, dataText, isData, type DataValue } from '../../values/data.js';
import { createMessage, isMessage, type MessageValue } from '../../values/message.js';
import { createTable, isTable, type TableValue } from '../../values/table.js';
import { chatText } from '../io/chat-text.js';
import { parseCsv } from '../shared/csv.js';

export function asMessage(value: unknown): MessageValue {
  if (isMessage(value)) return value;
  if (typeof value === 'string') return createMessage({ text: value });
  if (isData(value)) return createMessage({ text: value.text_key in value.data ? dataText(value) : JSON.stringify(value.data) });
  if (isTable(value)) return createMessage({ text: chatText(value, false) });
  return createMessage({ text: JSON.stringify(value ?? null) });
}

export function asData(value: unknown, autoParse: boolean): DataValue {
  if (isData(value)) return value;
  if (isTable(value)) return createData({ results: value.rows });
  const text = isMessage(value) ? value.text : typeof value === 'string' ? value : undefined;
  if (text !== undefined) return (autoParse && parseStructured(text)) || createData({ text });
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return createData(value as Record<string, unknown>);
  return createData({ value });
}

export function asTable(value: unknown, autoParse: boolean): TableValue {
  if (isTable(value)) return value;
  const data = asData(value, autoParse);
  const entries = Object.values(data.data);
  // A Data that is nothing but a list of objects is those rows; anything else is one row.
  if (entries.length === 1 && Array.isArray(entries[0]) && entries[0].every(isPlainObject)) return createTable(entries[0] as Record<string, unknown>[]);
  return createTable([data.data]);
}

/** JSON object -> that Data; JSON list of objects or CSV -> `{records}`; anything else -> undefined. */
function parseStructured(raw: string): DataValue | undefined {
  const text = raw.replace(/^\uFEFF/, '').trim();
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed)) return createData(parsed);
    if (Array.isArray(parsed) && parsed.every(isPlainObject)) return createData({ records: parsed });
  } catch {
    // not JSON: try CSV
  }
  const lines = text.split('\n');
  if (lines.length >= 2 && lines[0]!.includes(',')) {
    try {
      return createData({ records: parseCsv(text) });
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('kind' in value);
}
