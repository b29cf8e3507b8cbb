/** Message values <-> stored records, and the monotonic sequence that orders a session's history. */
import type { MessageRecord } from '../../protocol/message.schema.js';
import type { MessageValue } from '../values/message.js';

let last = 0;

/**
 * Strictly increasing across the process and across restarts: microseconds since the epoch, bumped by one when
 * two messages land in the same microsecond (a restarted process starts past the previous one's values).
 */
export function nextSeq(): number {
  last = Math.max(Date.now() * 1000, last + 1);
  return last;
}

export function toRecord(message: MessageValue, id: string, sessionId: string, seq: number): MessageRecord {
  return {
    id,
    flow_id: message.flow_id,
    session_id: sessionId,
    context_id: message.context_id ?? null,
    timestamp: message.timestamp,
    sender: message.sender,
    sender_name: message.sender_name,
    text: message.text,
    files: message.files,
    error: message.error,
    edit: message.edit,
    properties: message.properties,
    category: message.category,
    content_blocks: message.content_blocks,
    seq,
  };
}

export function fromRecord(record: MessageRecord): MessageValue {
  return {
    kind: 'message',
    id: record.id,
    text: record.text,
    sender: record.sender,
    sender_name: record.sender_name,
    session_id: record.session_id,
    context_id: record.context_id ?? null,
    flow_id: record.flow_id,
    files: record.files,
    timestamp: record.timestamp,
    error: record.error,
    edit: record.edit,
    category: record.category,
    properties: record.properties as MessageValue['properties'],
    content_blocks: record.content_blocks,
  };
}
