/**
 * Langflow's ErrorMessage (`lfx/schema/message.py`): the message a build's `error` event carries. The editor adds
 * it to the chat, and shows it as a flow error when it names no source component.
 */
import { randomUUID } from 'node:crypto';
import { createMessage } from '../values/message.js';
import { messageDict } from './message-dict.js';

export interface ErrorSource {
  id: string;
  displayName: string;
  /** The component type (Langflow's `source.source`). */
  type: string;
}

export function errorMessageData(options: { reason: string; errorName: string; flowId: string; sessionId: string; source?: ErrorSource }): Record<string, unknown> {
  const { reason, errorName, source } = options;
  const message = createMessage({
    id: randomUUID(),
    text: reason,
    sender: source?.displayName ?? null,
    sender_name: source?.displayName ?? null,
    session_id: options.sessionId,
    flow_id: options.flowId,
    error: true,
    category: 'error',
    properties: {
      text_color: 'red',
      background_color: 'red',
      edited: false,
      source: { id: source?.id ?? null, display_name: source?.displayName ?? null, source: source?.type ?? null },
      icon: 'error',
      allow_markdown: false,
      positive_feedback: null,
      state: 'complete',
      targets: [],
    },
    content_blocks: [
      {
        title: 'Error',
        contents: [{ type: 'error', component: source?.displayName ?? null, field: null, reason: `**${errorName}**\n - **Details: ${reason}**`, solution: null, traceback: null }],
        allow_markdown: true,
        media_url: null,
      },
    ],
  });
  return messageDict(message);
}
