/** Flows as Langflow's FlowRead/FlowCreate/FlowUpdate describe them; `data` is kept exactly as given. */
import { z } from 'zod';

export const AccessType = z.enum(['PRIVATE', 'PUBLIC']);

export const FlowData = z.record(z.string(), z.unknown());

export const FlowRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    icon: z.string().nullable(),
    icon_bg_color: z.string().nullable(),
    gradient: z.string().nullable(),
    data: FlowData.nullable(),
    is_component: z.boolean(),
    updated_at: z.string(),
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
  })
  .meta({ id: 'FlowRead' });
export type FlowRecord = z.infer<typeof FlowRecord>;

/** Endpoint names: letters, digits, hyphens and underscores (Langflow's rule). */
export const EndpointName = z.string().regex(/^[a-zA-Z0-9_-]+$/, 'Endpoint name must contain only letters, numbers, hyphens, and underscores');

export const FlowCreate = z
  .object({
    id: z.string().uuid().optional(),
    name: z.string().min(1),
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
    access_type: AccessType.optional(),
    user_id: z.string().nullable().optional(),
    folder_id: z.string().nullable().optional(),
    fs_path: z.string().nullable().optional(),
  })
  .loose()
  .meta({ id: 'FlowCreate' });
export type FlowCreate = z.infer<typeof FlowCreate>;

export const FlowUpdate = z
  .object({
    name: z.string().min(1).nullable().optional(),
    description: z.string().nullable().optional(),
    data: FlowData.nullable().optional(),
    folder_id: z.string().nullable().optional(),
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

export const FlowHeader = z
  .object({
    id: z.string(),
    name: z.string(),
    folder_id: z.string().nullable(),
    is_component: z.boolean(),
    endpoint_name: z.string().nullable(),
    description: z.string().nullable(),
    data: FlowData.nullable().optional(),
    access_type: AccessType,
    tags: z.array(z.string()).nullable(),
    mcp_enabled: z.boolean(),
    action_name: z.string().nullable(),
    action_description: z.string().nullable(),
  })
  .meta({ id: 'FlowHeader' });
