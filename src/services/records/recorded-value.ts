/**
 * A run's values as records keep them: plain JSON, bounded. Messages keep what a reader looks for (text, sender,
 * session), tables a bounded number of rows, models their provider and name (never their key), and live objects
 * (tools, functions) only their kind. Long texts are cut: a record is for reading what happened, not a second copy
 * of every document a run read.
 */
import { isData } from '../../values/data.js';
import { isLanguageModel } from '../../values/language-model.js';
import { isMessage } from '../../values/message.js';
import { isTable } from '../../values/table.js';

const MAX_TEXT = 10_000;
const MAX_ITEMS = 100;
const MAX_DEPTH = 8;

export function recordedValue(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return '…';
  // The session is the trace's: not repeated in every message.
  if (isMessage(value)) return { text: recordedValue(value.text), sender: value.sender, sender_name: value.sender_name };
  if (isData(value)) return recordedValue(value.data, depth + 1);
  if (isTable(value)) return value.rows.slice(0, MAX_ITEMS).map((row) => recordedValue(row, depth + 1));
  if (isLanguageModel(value)) return { provider: value.provider, model: value.model };
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => recordedValue(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return `<${(value as object).constructor?.name ?? 'object'}>`;
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'function') continue;
    if (++count > MAX_ITEMS) break;
    out[key] = recordedValue(item, depth + 1);
  }
  return out;
}

/** Each named value recorded. */
export function recordedFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) out[name] = recordedValue(value);
  return out;
}
