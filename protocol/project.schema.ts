/** Projects (Langflow's folders): records, FolderRead/FolderCreate/FolderUpdate and the upload file. */
import { z } from 'zod';
import { BoundedName, LIST_MAX_ITEMS } from './limits.js';
import { pageOf } from './common.schema.js';
import { FlowRead, UuidString } from './flow.schema.js';

const AuthSettings = z.record(z.string(), z.unknown());

/** A project as stored. `created_at` keeps listings in creation order; it is not on the wire. */
export const ProjectRecord = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  auth_settings: AuthSettings.nullable(),
  parent_id: z.string().nullable(),
  user_id: z.string().nullable(),
  created_at: z.string().optional(),
});
export type ProjectRecord = z.infer<typeof ProjectRecord>;

export const ProjectRead = ProjectRecord.omit({ user_id: true, created_at: true }).meta({ id: 'FolderRead' });
export type ProjectRead = z.infer<typeof ProjectRead>;

export function toProjectRead(project: ProjectRecord): ProjectRead {
  const { user_id: _owner, created_at: _created, ...read } = project;
  return read;
}

export const ProjectCreate = z
  .object({
    name: BoundedName,
    description: z.string().nullable().optional(),
    auth_settings: AuthSettings.nullable().optional(),
    parent_id: UuidString.nullable().optional(),
    components_list: z.array(UuidString).max(LIST_MAX_ITEMS, `At most ${LIST_MAX_ITEMS} items`).nullable().optional(),
    flows_list: z.array(UuidString).nullable().optional(),
  })
  .meta({ id: 'FolderCreate' });
export type ProjectCreate = z.infer<typeof ProjectCreate>;

/** `flows`/`components`, when sent, are the project's complete membership (flows left out go back to the default project). */
export const ProjectUpdate = z
  .object({
    name: BoundedName.nullable().optional(),
    description: z.string().nullable().optional(),
    parent_id: UuidString.nullable().optional(),
    components: z.array(UuidString).optional(),
    flows: z.array(UuidString).optional(),
    auth_settings: AuthSettings.nullable().optional(),
  })
  .meta({ id: 'FolderUpdate' });
export type ProjectUpdate = z.infer<typeof ProjectUpdate>;

export const ProjectWithFlows = ProjectRead.extend({ flows: z.array(FlowRead) }).meta({ id: 'FolderReadWithFlows' });

export const ProjectWithPaginatedFlows = z.object({ folder: ProjectRead, flows: pageOf(FlowRead) }).meta({ id: 'FolderWithPaginatedFlows' });

/** The JSON file of `POST /api/v1/projects/upload`; each flow is checked as a FlowCreate afterwards. */
export const ProjectFile = z
  .object({
    folder_name: BoundedName,
    folder_description: z.string().nullable().optional(),
    flows: z.array(z.unknown()),
  })
  .loose();
export type ProjectFile = z.infer<typeof ProjectFile>;
