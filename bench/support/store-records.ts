/** Records the store benches write: a chat message, a finished job, a small flow; each unique by its number. */
import { randomUUID } from 'node:crypto';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import type { JobRecord } from '../../protocol/job.schema.js';
import type { MessageRecord } from '../../protocol/message.schema.js';

const AT = '2025-01-01T00:00:00.000Z';

export const messageRecord = (session: number, n: number): MessageRecord => ({
  id: randomUUID(), flow_id: 'bench-flow', session_id: `s${session}`, context_id: null, timestamp: AT, sender: 'User', sender_name: 'User',
  text: `message ${n}`, files: [], error: false, edit: false, properties: { state: 'complete' }, category: 'message', content_blocks: [], seq: n + 1,
});

export const jobRecord = (n: number): JobRecord => ({
  id: randomUUID(), flow_id: 'bench-flow', user_id: 'bench-user', mode: 'background', status: n % 2 ? 'completed' : 'queued', created_at: AT,
  inputs: { 'ChatInput-1.input_value': `job ${n}` }, errors: [], event_count: 0,
});

export const flowRecord = (n: number): FlowRecord => ({
  id: randomUUID(), name: `bench flow ${n}`, description: null, icon: null, icon_bg_color: null, gradient: null,
  data: { nodes: Array.from({ length: 10 }, (_, i) => ({ id: `node-${i}`, data: { template: { value: 'x'.repeat(200) } } })), edges: [] },
  is_component: false, updated_at: AT, created_at: AT, webhook: false, endpoint_name: null, tags: [], locked: false, mcp_enabled: false,
  action_name: null, action_description: null, access_type: 'PRIVATE', user_id: 'bench-user', folder_id: null, fs_path: null,
});
