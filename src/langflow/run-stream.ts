/**
 * The v1 run stream: Langflow's framing, one JSON object `{"event","data"}` followed by a blank line (served as
 * text/event-stream, though it is not SSE). Only the events Langflow's run stream carries are sent.
 */
import type { RunEvent } from '../engine/events.js';
import { langflowTimestamp, messageDict } from './message-dict.js';

export const frame = (event: string, data: unknown): string => `${JSON.stringify({ event, data })}\n\n`;

/** The run stream's entry for an engine event; undefined for events it does not carry. */
export function runStreamEntry(event: RunEvent): { event: string; data: unknown } | undefined {
  switch (event.type) {
    case 'add_message':
      return { event: 'add_message', data: messageDict(event.message) };
    case 'token':
      return { event: 'token', data: { chunk: event.chunk, id: event.id, timestamp: langflowTimestamp(event.timestamp) } };
    default:
      return undefined;
  }
}
