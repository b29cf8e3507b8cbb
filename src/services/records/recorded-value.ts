/**
 * A run's values as records keep them: plain JSON, bounded. Messages keep what a reader looks for (text, sender,
 * session), tables a bounded number of rows, models their provider and name (never their key), and live objects
 * (tools, functions) only their kind. Long texts are cut: a record is for reading what happened, not a second copy
 * of every document a run read.
 *
 * Every run's values pass through here once it ends, so it reads a value's `kind` once and walks objects with
 * for-in rather than Object.entries (the entries' arrays and a kind read per value type were half its cost).
 */
import type { DataValue } from '../../values/data.js';
import type { LanguageModelValue } from '../../values/language-model.js';
import type { MessageValue } from '../../values/message.js';
import type { TableValue } from '../../values/table.js';

const MAX_TEXT = 10_000;
const MAX_ITEMS = 100;
const MAX_DEPTH = 8;

/** The run's own values, told apart by their `kind`. */
type KindOf<Value> = Value extends { kind: infer Kind } ? Kind : never;
type Kinded = MessageValue | DataValue | TableValue | LanguageModelValue;

export function recordedValue(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case 'string':
      return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
    case 'number':
    case 'boolean':
      return value;
    case 'object':
      return value === null ? null : depth >= MAX_DEPTH ? '…' : recordedObject(value, depth);
    default:
      return null;
  }
}

function recordedObject(value: object, depth: number): unknown {
  const kinded = value as Kinded;
  switch (kinded.kind as KindOf<Kinded> | undefined) {
    // The session is the trace's: not repeated in every message.
    case 'message': {
      const message = kinded as MessageValue;
      return { text: recordedValue(message.text), sender: message.sender, sender_name: message.sender_name };
    }
    case 'data':
      return recordedValue((kinded as DataValue).data, depth + 1);
    case 'table':
      return recordedItems((kinded as TableValue).rows, depth);
    case 'language_model': {
      const model = kinded as LanguageModelValue;
      return { provider: model.provider, model: model.model };
    }
  }
  if (Array.isArray(value)) return recordedItems(value, depth);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return `<${value.constructor?.name ?? 'object'}>`;
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'function') continue;
    if (++count > MAX_ITEMS) break;
    out[key] = recordedValue(item, depth + 1);
  }
  return out;
}

function recordedItems(items: readonly unknown[], depth: number): unknown[] {
  const out = new Array<unknown>(Math.min(items.length, MAX_ITEMS));
  for (let n = 0; n < out.length; n++) out[n] = recordedValue(items[n], depth + 1);
  return out;
}

/** Each named value recorded. */
export function recordedFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in fields) out[name] = recordedValue(fields[name]);
  return out;
}
