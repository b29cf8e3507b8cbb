/**
 * Values into and out of a sandbox. In: a Message as its JSON form ({text, sender, ...}), a Data as its object, a
 * Table as its rows. Out, by the output's declared types: a string or {text, ...} for a Message output becomes a
 * Message, an object for a Data output a Data, an array of rows for a DataFrame output a Table.
 */
import type { ComponentContext, OutputSpec } from '../contract.js';
import { createData, isData } from '../../values/data.js';
import { createMessage, isMessage, type MessageValue } from '../../values/message.js';
import { createTable, isTable } from '../../values/table.js';

/** The inputs as the JSON text the sandbox parses. */
export function inputsJson(inputs: Record<string, unknown>): string {
  return JSON.stringify(inputs, (_key, value: unknown) => {
    if (isMessage(value)) {
      const { kind: _kind, ...form } = value;
      return form;
    }
    if (isData(value)) return value.data;
    if (isTable(value)) return value.rows;
    return value;
  });
}

/** The run's result as outputs: an object keyed by output names, or, for a single output, the value itself. */
export function outputsOf(result: unknown, outputs: readonly OutputSpec[], ctx: ComponentContext): Record<string, unknown> {
  const keyed = isRecord(result) && outputs.some((output) => Object.hasOwn(result, output.name));
  const values: Record<string, unknown> = keyed ? (result as Record<string, unknown>) : outputs.length === 1 ? { [outputs[0]!.name]: result } : {};
  const produced: Record<string, unknown> = {};
  for (const output of outputs) {
    if (!ctx.requested.has(output.name)) continue;
    const value = Object.hasOwn(values, output.name) ? values[output.name] : undefined;
    // Undefined (or null) leaves the output unset: the engine skips what hangs off it, as for a router's branch.
    produced[output.name] = value === undefined || value === null ? undefined : typed(value, output.types, ctx);
  }
  return produced;
}

function typed(value: unknown, types: readonly string[], ctx: ComponentContext): unknown {
  if (types.includes('Message')) {
    if (typeof value === 'string') return message({ text: value }, ctx);
    if (isRecord(value) && typeof value.text === 'string') return message(value, ctx);
  }
  if (types.includes('Data') && isRecord(value)) return createData(value);
  if (types.includes('DataFrame') && Array.isArray(value) && value.every(isRecord)) return createTable(value);
  if (types.includes('Message') && !types.includes('Data')) return message({ text: typeof value === 'string' ? value : JSON.stringify(value) }, ctx);
  return value;
}

const MESSAGE_KEYS = ['text', 'sender', 'sender_name', 'files', 'category', 'content_blocks'] as const;

function message(fields: Record<string, unknown>, ctx: ComponentContext): MessageValue {
  const picked: Record<string, unknown> = {};
  for (const key of MESSAGE_KEYS) if (fields[key] !== undefined) picked[key] = fields[key];
  return createMessage({
    ...(picked as { text: string }),
    session_id: ctx.run.sessionId,
    flow_id: ctx.run.flowId,
    properties: { source: { id: ctx.run.vertexId, display_name: ctx.run.displayName, source: null } },
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
