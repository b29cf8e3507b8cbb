/**
 * Stored messages as Langflow's monitor API shows them. The list view (MessageResponse) has two quirks clients
 * depend on: the timestamp as "YYYY-MM-DD HH:MM:SS UTC" and `files` as a JSON string. The PUT reply (MessageRead)
 * uses an ISO timestamp and a real list.
 */
import type { MessageRecord } from '../../protocol/message.schema.js';
import { langflowTimestamp } from './message-dict.js';

export function messageResponse(record: MessageRecord): Record<string, unknown> {
  return {
    id: record.id,
    flow_id: record.flow_id,
    timestamp: langflowTimestamp(record.timestamp),
    sender: record.sender,
    sender_name: record.sender_name,
    session_id: record.session_id,
    context_id: record.context_id ?? null,
    text: record.text,
    files: JSON.stringify(record.files),
    edit: record.edit,
    duration: null,
    properties: record.properties,
    category: record.category,
    content_blocks: record.content_blocks,
  };
}

export function messageRead(record: MessageRecord): Record<string, unknown> {
  return {
    timestamp: record.timestamp,
    sender: record.sender,
    sender_name: record.sender_name,
    session_id: record.session_id,
    context_id: record.context_id ?? null,
    text: record.text,
    files: record.files,
    error: record.error,
    edit: record.edit,
    properties: record.properties,
    category: record.category,
    content_blocks: record.content_blocks,
    id: record.id,
    flow_id: record.flow_id,
  };
}
