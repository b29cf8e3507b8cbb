/**
 * How a run's log is stored on its JetStream subject: one message per entry, its payload the entry's JSON, then an
 * end marker (an empty message with the `Flowsvc-End` header) once the run is over. Message ids (`Nats-Msg-Id`)
 * are the run and the entry's sequence number, so the server drops a second copy of an entry sent again within the
 * stream's duplicate window, and a second end marker.
 */
import { headers, type MsgHdrs } from '@nats-io/transport-node';
import type { LogEntry } from '../runs/run-log.js';

export const END_HEADER = 'Flowsvc-End';
const MSG_ID_HEADER = 'Nats-Msg-Id';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `dataText`, when given, is `JSON.stringify(entry.data)`: the caller already encoded it, so it is not done twice. */
export function encodeEntry(entry: LogEntry, dataText?: string): Uint8Array {
  const data = dataText ?? (entry.data === undefined ? undefined : JSON.stringify(entry.data));
  // An entry without data stays without it (as JSON.stringify of the entry would leave it out).
  const json = data === undefined
    ? `{"seq":${entry.seq},"event":${JSON.stringify(entry.event)}}`
    : `{"seq":${entry.seq},"event":${JSON.stringify(entry.event)},"data":${data}}`;
  return encoder.encode(json);
}

export function decodeEntry(payload: Uint8Array): LogEntry {
  return JSON.parse(decoder.decode(payload)) as LogEntry;
}

export function endMarkerHeaders(): MsgHdrs {
  const marker = headers();
  marker.set(END_HEADER, '1');
  return marker;
}

/** The headers of a message published without the JetStream client (which would set the message id itself). */
export function messageHeaders(msgId: string, endMarker = false): MsgHdrs {
  const messageHeaders = endMarker ? endMarkerHeaders() : headers();
  messageHeaders.set(MSG_ID_HEADER, msgId);
  return messageHeaders;
}

export function isEndMarker(messageHeaders: MsgHdrs | undefined): boolean {
  return messageHeaders?.has(END_HEADER) ?? false;
}

/** `runToken` is the run's subject token (cluster-names.ts), the run id itself for every well-formed id. */
export const entryMsgId = (runToken: string, seq: number): string => `${runToken}:${seq}`;
export const endMsgId = (runToken: string): string => `${runToken}:end`;
