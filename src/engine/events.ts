/** The run's internal event union; wire encoders at the edge turn these into each protocol's frames. */
import type { MessageValue } from '../values/message.js';

export type RunEvent =
  | { type: 'vertices_sorted'; ids: string[]; to_run: string[] }
  | { type: 'build_start' }
  | { type: 'add_message'; message: MessageValue }
  | { type: 'token'; id: string; chunk: string; timestamp: string }
  | { type: 'end_vertex'; id: string; componentType: string; displayName: string; valid: boolean; outputs: Record<string, unknown>; durationMs: number }
  | { type: 'error'; vertexId?: string; componentType?: string; displayName?: string; message: string }
  | { type: 'end'; status: RunStatus };

export type RunStatus = 'completed' | 'failed' | 'cancelled' | 'timed_out';
