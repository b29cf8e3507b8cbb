/**
 * What Write File (SaveToFile) writes, as Langflow's writes it: a Message as text, `{"message": ...}` JSON or a
 * markdown paragraph; a table or a Data as CSV, JSON records or a markdown table. Excel is not written here.
 */
import { stringify } from 'csv-stringify/sync';
import { createData, isData, type DataValue } from '../../values/data.js';
import { createMessage, isMessage, type MessageValue } from '../../values/message.js';
import { createTable, isTable, type TableValue } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { chatText } from '../io/chat-text.js';

export type Content = MessageValue | DataValue | TableValue;

const MESSAGE_FORMATS = ['txt', 'html', 'json', 'markdown'];
const TABLE_FORMATS = ['csv', 'excel', 'json', 'markdown'];

/** The input as one of the kinds Write File knows; a JSON text of objects is a table, other text a Message. */
export function contentOf(value: unknown): Content {
  const first = Array.isArray(value) ? value[0] : value;
  if (isMessage(first) || isTable(first) || isData(first)) return first;
  if (typeof first === 'string') {
    try {
      const parsed: unknown = JSON.parse(first);
      if (Array.isArray(parsed) && parsed.length > 0 && parsed.every(isObject)) return createTable(parsed);
      if (isObject(parsed)) return createTable([parsed]);
    } catch {
      // not JSON: a Message
    }
    return createMessage({ text: first });
  }
  if (isObject(first)) return createData(first);
  throw new ComponentError('Field "File Content" (input): connect a Message, a Data or a Table to save');
}

/** The file's text in `format`, or why that format does not fit the content. */
export function fileText(content: Content, format: string): string {
  const kind = isMessage(content) ? 'Message' : isTable(content) ? 'DataFrame' : 'Data';
  const allowed = kind === 'Message' ? MESSAGE_FORMATS : TABLE_FORMATS;
  if (!allowed.includes(format)) throw new ComponentError(`Invalid file format '${format}' for ${kind}. Allowed: ${allowed.join(', ')}`);
  if (format === 'excel') throw new ComponentError('Excel files are not written here: choose csv, json or markdown');
  if (isMessage(content)) {
    if (format === 'json') return JSON.stringify({ message: content.text }, null, 2);
    return format === 'markdown' ? `**Message:**\n\n${content.text}` : content.text;
  }
  if (isData(content) && format === 'json') return JSON.stringify(content.data, null, 2);
  const rows = isTable(content) ? content.rows : [content.data];
  if (format === 'json') return JSON.stringify(rows, null, 2);
  if (format === 'markdown') return chatText(createTable(rows), false);
  return stringify(rows.map(flatRow), { header: true, columns: columnsOf(rows) });
}

/** The extension a format's file gets (Langflow's: the format's name, xlsx for excel). */
export const extensionOf = (format: string) => (format === 'excel' ? 'xlsx' : format);

/** The default format of a kind of content where the node sets none. */
export const defaultFormat = (content: Content) => (isTable(content) ? 'csv' : 'json');

function columnsOf(rows: Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

const flatRow = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === 'object' && value !== null ? JSON.stringify(value) : value]));

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('kind' in value);
}
