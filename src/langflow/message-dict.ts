/** Messages as Langflow serialises them in run replies and stream events. */
import { isData } from '../values/data.js';
import { isMessage, type MessageValue } from '../values/message.js';
import { isTable } from '../values/table.js';

/** Langflow's Message timestamp: "%Y-%m-%d %H:%M:%S %Z" in UTC. */
export function langflowTimestamp(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

export function messageDict(message: MessageValue): Record<string, unknown> {
  return {
    timestamp: langflowTimestamp(message.timestamp),
    sender: message.sender,
    sender_name: message.sender_name,
    session_id: message.session_id,
    context_id: message.context_id ?? null,
    text: message.text,
    files: message.files,
    error: message.error,
    edit: message.edit,
    properties: message.properties,
    category: message.category,
    content_blocks: message.content_blocks,
    id: message.id ?? null,
    flow_id: message.flow_id,
    duration: null,
  };
}

/** A value as Langflow's `results` holds it (model_dump of Message/Data, records of a DataFrame). */
export function resultValue(value: unknown): unknown {
  if (isMessage(value)) return messageResult(value);
  if (isData(value)) return { text_key: value.text_key, data: value.data, default_value: value.default_value };
  if (isTable(value)) return value.rows;
  return value ?? null;
}

/** A Message in `results`: its dict, Message's model_dump extras, and the component that made it (run replies). */
export function messageResult(message: MessageValue, componentId?: string): Record<string, unknown> {
  // Added to the fresh dict in the wire's key order, rather than spread into another object: every reply runs this.
  const result = messageDict(message);
  result.text_key = 'text';
  result.data = { text: message.text };
  result.default_value = '';
  if (componentId !== undefined) result.component_id = componentId;
  return result;
}

/** A value as Langflow's `outputs.<name>` shows it: `{message, type}`. */
export function outputView(value: unknown): { message: unknown; type: string } {
  if (isMessage(value)) return { message: value.text, type: 'text' };
  if (isData(value)) return { message: value.data, type: 'object' };
  if (isTable(value)) return { message: value.rows, type: 'array' };
  if (typeof value === 'string') return { message: value, type: 'text' };
  return { message: value ?? null, type: Array.isArray(value) ? 'array' : 'object' };
}
