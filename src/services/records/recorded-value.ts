/**
 * A run's values as records keep them: plain JSON, bounded. Messages keep what a reader looks for (text, sender,
 * session), tables a bounded number of rows, models their provider and name (never their key), and live objects
 * (tools, functions) only their kind. Long texts are cut: a record is for reading what happened, not a second copy
 * of every document a run read.
 *
 * Every run's values pass through here once it ends, so it reads a value's `kind` once and walks objects with
 * for-in rather than Object.entries (the entries' arrays and a kind read per value type were half its cost).
 */
import type { MsgpackWriter } from '../../store/msgpack-writer.js';
import { LINKED_TEXT } from '../../store/trace-row.js';
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

/** A text as recorded: cut past MAX_TEXT. */
const recordedText = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** What an object that is not plain (a class's instance: a tool, a client) is recorded as; undefined: plain. */
function instanceName(value: object): string | undefined {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null ? undefined : `<${value.constructor?.name ?? 'object'}>`;
}

export function recordedValue(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case 'string':
      return recordedText(value);
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
  const instance = instanceName(value);
  if (instance !== undefined) return instance;
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

/**
 * The same rules, written to a row as msgpack rather than built (the recorder writes runs' rows this way: no object
 * per value). Reading what it wrote gives what `recordedValue` returns.
 */
export function writeRecorded(out: MsgpackWriter, value: unknown, depth = 0): void {
  switch (typeof value) {
    case 'string':
      return out.str(recordedText(value));
    case 'number':
      return out.num(value);
    case 'boolean':
      return out.bool(value);
    case 'object':
      if (value === null) return out.nil();
      if (depth >= MAX_DEPTH) return out.str('…');
      return writeRecordedObject(out, value, depth);
    default:
      return out.nil();
  }
}

function writeRecordedObject(out: MsgpackWriter, value: object, depth: number): void {
  const kinded = value as Kinded;
  switch (kinded.kind as KindOf<Kinded> | undefined) {
    case 'message': {
      const message = kinded as MessageValue;
      out.mapHeader(3);
      out.str('text');
      writeRecorded(out, message.text);
      out.str('sender');
      out.value(message.sender);
      out.str('sender_name');
      return out.value(message.sender_name);
    }
    case 'data':
      return writeRecorded(out, (kinded as DataValue).data, depth + 1);
    case 'table':
      return writeRecordedItems(out, (kinded as TableValue).rows, depth);
    case 'language_model': {
      const model = kinded as LanguageModelValue;
      out.mapHeader(2);
      out.str('provider');
      out.value(model.provider);
      out.str('model');
      return out.value(model.model);
    }
  }
  if (Array.isArray(value)) return writeRecordedItems(out, value, depth);
  const instance = instanceName(value);
  if (instance !== undefined) return out.str(instance);
  let count = 0;
  for (const key in value) if (typeof (value as Record<string, unknown>)[key] !== 'function' && ++count === MAX_ITEMS) break;
  out.mapHeader(count);
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'function') continue;
    if (count-- === 0) break;
    out.str(key);
    writeRecorded(out, item, depth + 1);
  }
}

function writeRecordedItems(out: MsgpackWriter, items: readonly unknown[], depth: number): void {
  const count = Math.min(items.length, MAX_ITEMS);
  out.arrayHeader(count);
  for (let n = 0; n < count; n++) writeRecorded(out, items[n], depth + 1);
}

/**
 * What a value's record could be linked by (a row writes an input that is an earlier output as a link: trace-row.ts):
 * its text when it is recorded as a text long enough to link, OBJECT when it is recorded as an object (a fresh one
 * each time: only the output it was recorded for is that object), undefined when a link would not pay.
 */
export function recordedLinkKey(value: unknown, depth = 0): string | typeof RECORDED_OBJECT | undefined {
  if (typeof value === 'string') return linkedText(recordedText(value));
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_DEPTH) return undefined;
  const kind = (value as Kinded).kind as KindOf<Kinded> | undefined;
  if (kind === 'data') return recordedLinkKey((value as DataValue).data, depth + 1);
  if (kind === 'message' || kind === 'table' || kind === 'language_model' || Array.isArray(value)) return RECORDED_OBJECT;
  const instance = instanceName(value);
  return instance === undefined ? RECORDED_OBJECT : linkedText(instance);
}

const linkedText = (text: string): string | undefined => (text.length > LINKED_TEXT ? text : undefined);

export const RECORDED_OBJECT = Symbol('recorded as an object');
