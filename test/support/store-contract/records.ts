/** Valid records for the store contract, each with its own id; `fields` override the defaults. */
import { randomUUID } from 'node:crypto';
import type { ApiKeyRecord } from '../../../protocol/api-key.schema.js';
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import type { JobRecord } from '../../../protocol/job.schema.js';
import type { MessageRecord } from '../../../protocol/message.schema.js';
import type { ProjectRecord } from '../../../protocol/project.schema.js';
import type { StoredResponse } from '../../../protocol/responses.schema.js';
import type { UserRecord } from '../../../protocol/user.schema.js';
import type { VariableRecord } from '../../../protocol/variable.schema.js';
import { failedResponse, inProgressResponse } from '../../../src/services/responses/response-object.js';

const AT = '2025-01-01T00:00:00.000Z';

export const user = (fields: Partial<UserRecord> = {}): UserRecord => ({
  id: randomUUID(), username: `user-${randomUUID()}`, password_hash: 'hash', profile_image: null, store_api_key: null, is_active: true,
  is_superuser: false, create_at: AT, updated_at: AT, last_login_at: null, optins: null, ...fields,
});

export const apiKey = (userId: string, fields: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: randomUUID(), name: 'key', user_id: userId, hash: `hash-${randomUUID()}`, prefix: 'sk-abcde', created_at: AT, last_used_at: null,
  total_uses: 0, is_active: true, ...fields,
});

export const flow = (userId: string | null, fields: Partial<FlowRecord> = {}): FlowRecord => ({
  id: randomUUID(), name: `flow-${randomUUID()}`, description: null, icon: null, icon_bg_color: null, gradient: null,
  data: { nodes: [], edges: [] }, is_component: false, updated_at: AT, created_at: AT, webhook: false, endpoint_name: null, tags: [],
  locked: false, mcp_enabled: false, action_name: null, action_description: null, access_type: 'PRIVATE', user_id: userId, folder_id: null,
  fs_path: null, ...fields,
});

export const project = (userId: string | null, fields: Partial<ProjectRecord> = {}): ProjectRecord => ({
  id: randomUUID(), name: `project-${randomUUID()}`, description: null, auth_settings: null, parent_id: null, user_id: userId, created_at: AT, ...fields,
});

export const variable = (userId: string, fields: Partial<VariableRecord> = {}): VariableRecord => ({
  id: randomUUID(), user_id: userId, name: `VAR_${randomUUID()}`, type: 'Generic', value: 'value', default_fields: [], created_at: AT, updated_at: AT, ...fields,
});

export const message = (flowId: string | null, sessionId: string, seq: number, fields: Partial<MessageRecord> = {}): MessageRecord => ({
  id: randomUUID(), flow_id: flowId, session_id: sessionId, context_id: null, timestamp: AT, sender: 'User', sender_name: 'User', text: `message ${seq}`,
  files: [], error: false, edit: false, properties: { state: 'complete' }, category: 'message', content_blocks: [], seq, ...fields,
});

export const job = (fields: Partial<JobRecord> = {}): JobRecord => ({
  id: randomUUID(), flow_id: randomUUID(), user_id: randomUUID(), mode: 'background', status: 'queued', created_at: AT, inputs: { 'ChatInput-1.input_value': 'hi' },
  errors: [], event_count: 0, ...fields,
});

export function response(status: 'in_progress' | 'failed', fields: Partial<StoredResponse> = {}): StoredResponse {
  const who = { id: `resp_${randomUUID().replaceAll('-', '')}`, createdAt: 1_735_689_600, model: randomUUID(), previousResponseId: null, includeToolResults: false };
  const body = status === 'in_progress' ? inProgressResponse(who) : failedResponse(who, 'it failed');
  return { id: who.id, flow_id: who.model, session_id: who.id, user_id: randomUUID(), created_at: who.createdAt, response: body, ...fields };
}

/** Records sorted by id: listings the port leaves unordered compare whole, whatever order they come in. */
export const byId = <T extends { id: string }>(records: T[]): T[] => [...records].sort((a, b) => a.id.localeCompare(b.id));
