/**
 * Run events as the v2 workflow event log records them: Langflow's event kinds and payloads (add_message, token,
 * vertices_sorted, end_vertex, error). Events the log does not keep give undefined.
 */
import type { RunEvent } from '../engine/events.js';
import { langflowTimestamp, messageDict } from './message-dict.js';

export interface WorkflowEvent {
  event: string;
  data: unknown;
}

export function workflowEvent(event: RunEvent): WorkflowEvent | undefined {
  switch (event.type) {
    case 'vertices_sorted':
      return { event: 'vertices_sorted', data: { ids: event.ids, to_run: event.to_run } };
    case 'add_message':
      return { event: 'add_message', data: messageDict(event.message) };
    case 'token':
      return { event: 'token', data: { chunk: event.chunk, id: event.id, timestamp: langflowTimestamp(event.timestamp) } };
    case 'end_vertex':
      return {
        event: 'end_vertex',
        data: { build_data: { id: event.id, valid: event.valid, data: { component_type: event.componentType, display_name: event.displayName, duration_ms: event.durationMs } } },
      };
    case 'error':
      return { event: 'error', data: { error: event.message, component_id: event.vertexId ?? null, component_type: event.componentType ?? null, display_name: event.displayName ?? null } };
    default:
      return undefined;
  }
}
