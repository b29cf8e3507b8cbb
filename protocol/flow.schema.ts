/** Flows as Langflow's FlowRead/FlowCreate/FlowUpdate/FlowHeader describe them; `data` is kept exactly as given. */
import { z } from 'zod';
import { BoundedName, LIST_MAX_ITEMS } from './limits.js';
import { pageOf } from './common.schema.js';

export const AccessType = z.enum(['PRIVATE', 'PUBLIC']);

const UUID_FORM = /^(?:urn:uuid:)?(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * An id where Langflow declares a UUID: read as FastAPI reads it (any case, hyphens optional, `urn:uuid:` prefix)
 * and normalised to the lower-case hyphenated form we store, so `ABC...` and `abc-...` name the same flow.
 */
export const UuidString = z.string().meta({ format: 'uuid' }).transform((value, ctx) => {
  if (!UUID_FORM.test(value)) {
    ctx.addIssue({ code: 'invalid_format', format: 'uuid', input: value, message: 'Input should be a valid UUID' });
    return z.NEVER;
  }
  const hex = value.replace(/^urn:uuid:/i, '').replaceAll('-', '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
});

/** Langflow refuses a non-empty `data` without `nodes` and `edges`; everything inside is kept exactly as given. */
export const FlowData = z.record(z.string(), z.unknown()).superRefine((data, ctx) => {
  if (Object.keys(data).length === 0) return;
  if (!('nodes' in data)) ctx.addIssue({ code: 'custom', message: 'Value error, Flow must have nodes' });
  else if (!('edges' in data)) ctx.addIssue({ code: 'custom', message: 'Value error, Flow must have edges' });
});
export type FlowData = z.infer<typeof FlowData>;

/** A flow as stored. `created_at` orders listings the way Langflow's table order does; it is not on the wire. */
export const FlowRecord = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  icon_bg_color: z.string().nullable(),
  gradient: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  is_component: z.boolean(),
  updated_at: z.string(),
  created_at: z.string().optional(),
  webhook: z.boolean(),
  endpoint_name: z.string().nullable(),
  tags: z.array(z.string()).nullable(),
  locked: z.boolean(),
  mcp_enabled: z.boolean(),
  action_name: z.string().nullable(),
  action_description: z.string().nullable(),
  access_type: AccessType,
  user_id: z.string().nullable(),
  folder_id: z.string().nullable(),
  fs_path: z.string().nullable(),
});
export type FlowRecord = z.infer<typeof FlowRecord>;

export const FlowRead = FlowRecord.omit({ created_at: true, fs_path: true }).meta({ id: 'FlowRead' });
export type FlowRead = z.infer<typeof FlowRead>;

export function toFlowRead(flow: FlowRecord): FlowRead {
  const { created_at: _created, fs_path: _path, ...read } = flow;
  return read;
}

/** Endpoint names: letters, digits, hyphens and underscores (Langflow's rule). */
export const EndpointName = BoundedName.regex(/^[a-zA-Z0-9_-]+$/, 'Endpoint name must contain only letters, numbers, hyphens, and underscores');

/**
 * Only `name` is required. Unknown keys (an export's `id`, `last_tested_version`, ...) are accepted and ignored,
 * as pydantic does: a created flow always gets a new id and belongs to the caller.
 */
export const FlowCreate = z
  .object({
    name: BoundedName,
    description: z.string().nullable().optional(),
    icon: z.string().nullable().optional(),
    icon_bg_color: z.string().nullable().optional(),
    gradient: z.string().nullable().optional(),
    data: FlowData.nullable().optional(),
    is_component: z.boolean().nullable().optional(),
    updated_at: z.string().nullable().optional(),
    webhook: z.boolean().nullable().optional(),
    endpoint_name: EndpointName.nullable().optional(),
    tags: z.array(z.string()).nullable().optional(),
    locked: z.boolean().nullable().optional(),
    mcp_enabled: z.boolean().nullable().optional(),
    action_name: z.string().nullable().optional(),
    action_description: z.string().nullable().optional(),
    access_type: AccessType.nullable().optional(),
    user_id: z.string().nullable().optional(),
    folder_id: UuidString.nullable().optional(),
    fs_path: z.string().nullable().optional(),
  })
  .loose()
  .meta({ id: 'FlowCreate' });
export type FlowCreate = z.infer<typeof FlowCreate>;

/** Absent or null fields leave the flow as it is, except `endpoint_name`: null or "" clears it. */
export const FlowUpdate = z
  .object({
    name: BoundedName.nullable().optional(),
    description: z.string().nullable().optional(),
    data: FlowData.nullable().optional(),
    folder_id: UuidString.nullable().optional(),
    endpoint_name: EndpointName.or(z.literal('')).nullable().optional(),
    mcp_enabled: z.boolean().nullable().optional(),
    locked: z.boolean().nullable().optional(),
    action_name: z.string().nullable().optional(),
    action_description: z.string().nullable().optional(),
    access_type: AccessType.nullable().optional(),
    fs_path: z.string().nullable().optional(),
    icon: z.string().nullable().optional(),
    icon_bg_color: z.string().nullable().optional(),
    gradient: z.string().nullable().optional(),
    tags: z.array(z.string()).nullable().optional(),
  })
  .loose()
  .meta({ id: 'FlowUpdate' });
export type FlowUpdate = z.infer<typeof FlowUpdate>;

/** The light listing shape; `data` only for components (Langflow's validator nulls it otherwise). */
export const FlowHeader = z
  .object({
    id: z.string(),
    name: z.string(),
    folder_id: z.string().nullable(),
    is_component: z.boolean(),
    endpoint_name: z.string().nullable(),
    description: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    access_type: AccessType,
    tags: z.array(z.string()).nullable(),
    mcp_enabled: z.boolean(),
    action_name: z.string().nullable(),
    action_description: z.string().nullable(),
  })
  .meta({ id: 'FlowHeader' });
export type FlowHeader = z.infer<typeof FlowHeader>;

export function toFlowHeader(flow: FlowRecord): FlowHeader {
  return {
    id: flow.id,
    name: flow.name,
    folder_id: flow.folder_id,
    is_component: flow.is_component,
    endpoint_name: flow.endpoint_name,
    description: flow.description,
    data: flow.is_component ? flow.data : null,
    access_type: flow.access_type,
    tags: flow.tags,
    mcp_enabled: flow.mcp_enabled,
    action_name: flow.action_name,
    action_description: flow.action_description,
  };
}

export const FlowListCreate = z.object({ flows: z.array(FlowCreate).max(LIST_MAX_ITEMS, `At most ${LIST_MAX_ITEMS} items`) }).meta({ id: 'FlowListCreate' });

export const FlowIds = z.array(UuidString).max(LIST_MAX_ITEMS, `At most ${LIST_MAX_ITEMS} items`);

export const FlowsPage = pageOf(FlowRead).meta({ id: 'Page_FlowRead_' });

/** `GET /api/v1/starter-projects`: Langflow's GraphDump. */
export const GraphDump = z
  .object({
    data: z.record(z.string(), z.unknown()).nullable(),
    is_component: z.boolean(),
    name: z.string(),
    description: z.string().nullable(),
    endpoint_name: z.string().nullable(),
  })
  .meta({ id: 'GraphDump' });
export type GraphDump = z.infer<typeof GraphDump>;
