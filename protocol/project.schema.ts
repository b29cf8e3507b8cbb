/** Projects (Langflow's folders). */
import { z } from 'zod';
import { FlowRecord } from './flow.schema.js';

export const ProjectRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    auth_settings: z.record(z.string(), z.unknown()).nullable(),
    parent_id: z.string().nullable(),
    user_id: z.string().nullable(),
  })
  .meta({ id: 'FolderRead' });
export type ProjectRecord = z.infer<typeof ProjectRecord>;

export const ProjectCreate = z
  .object({
    name: z.string().min(1),
    description: z.string().nullable().optional(),
    auth_settings: z.record(z.string(), z.unknown()).nullable().optional(),
    parent_id: z.string().nullable().optional(),
    components_list: z.array(z.string()).nullable().optional(),
    flows_list: z.array(z.string()).nullable().optional(),
  })
  .meta({ id: 'FolderCreate' });

export const ProjectUpdate = z
  .object({
    name: z.string().min(1).nullable().optional(),
    description: z.string().nullable().optional(),
    parent_id: z.string().nullable().optional(),
    components: z.array(z.string()).optional(),
    flows: z.array(z.string()).optional(),
    auth_settings: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .meta({ id: 'FolderUpdate' });

export const ProjectWithFlows = ProjectRecord.extend({ flows: z.array(FlowRecord) }).meta({ id: 'FolderReadWithFlows' });
