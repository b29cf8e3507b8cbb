/** Coercions between edge values, as Langflow applies them by the target input (research: components section 2). */
import { createData, dataText, isData, type DataValue } from './data.js';
import { createMessage, isMessage, type MessageValue } from './message.js';
import { isTable } from './table.js';

/** A text input: a Message gives its text, a Data its text key, plain values their string form. */
export function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (isMessage(value)) return value.text;
  if (isData(value)) return dataText(value);
  if (isTable(value)) return JSON.stringify(value.rows);
  if (Array.isArray(value)) return value.map(toText).join('\n');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A message input: strings and objects are wrapped; Messages pass through. */
export function toMessage(value: unknown): MessageValue {
  if (isMessage(value)) return value;
  return createMessage({ text: toText(value) });
}

/** A data input: plain objects are wrapped; Messages become their fields. */
export function toData(value: unknown): DataValue {
  if (isData(value)) return value;
  if (isMessage(value)) return createData({ text: value.text, sender: value.sender, sender_name: value.sender_name, session_id: value.session_id });
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return createData(value as Record<string, unknown>);
  return createData({ text: toText(value) });
}
