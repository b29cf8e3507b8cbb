/**
 * JSON text of a job, each part encoded once: an event's data serves its SSE frame and the stored log; a finished
 * job's reply text serves the sync reply, its final `job_status` event and (without the globals echo) its record.
 */
import type { JobEvent, JobRecord } from '../../../protocol/job.schema.js';
import type { StoredResponse } from './workflow-reply.js';

/**
 * Where an event keeps its data's JSON text once encoded: a symbol-keyed slot, which JSON.stringify and the wire
 * never see. (A WeakMap from event to text cost twice the encoding itself, and its entries are ephemerons the
 * garbage collector has to trace apart, for every event of every job.)
 */
const DATA_TEXT = Symbol('data JSON text');
type TextHolder = JobEvent & { [DATA_TEXT]?: string };

/** A new log event; `dataText`, when the caller has it, must be `JSON.stringify(data)`. */
export function jobEvent(seq: number, event: string, data: unknown, dataText?: string): JobEvent {
  const entry: TextHolder = { seq, event, data, [DATA_TEXT]: dataText };
  return entry;
}

/** The JSON text of an event's data (undefined when it has none, as JSON.stringify gives), encoded on first ask. */
export function dataJson(event: JobEvent): string | undefined {
  const holder = event as TextHolder;
  const held = holder[DATA_TEXT];
  if (held !== undefined) return held;
  const text = JSON.stringify(event.data);
  holder[DATA_TEXT] = text;
  return text;
}

/** A log as the JSON text of its events array (what `JSON.stringify(events)` gives), from each event's data text. */
export function logJson(events: readonly JobEvent[]): string {
  const parts = new Array<string>(events.length);
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const data = dataJson(event);
    const head = `{"seq":${event.seq},"event":${JSON.stringify(event.event)}`;
    parts[i] = data === undefined ? `${head}}` : `${head},"data":${data}}`;
  }
  return `[${parts.join(',')}]`;
}

/** `{ ...response, globals }` as text, from the response's text. */
export function replyJson(responseText: string, globals: Record<string, string>): string {
  return `${responseText.slice(0, -1)},"globals":${JSON.stringify(globals)}}`;
}

/** `{ ...head, [key]: value }` as text, from the text of `value` (`head` has a key of its own; `key` is new to it). */
export function withKeyJson(head: object, key: string, valueText: string): string {
  const text = JSON.stringify(head);
  return `${text.slice(0, -1)},${JSON.stringify(key)}:${valueText}}`;
}

/** A finished record's text and the record, its response given with its text (encoded once for the reply too). */
export function finishedRecord(head: JobRecord, response: StoredResponse, responseText: string): { record: JobRecord; json: string } {
  const json = withKeyJson(head, 'response', responseText);
  return { record: { ...head, response }, json };
}
