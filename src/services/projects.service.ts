/** Projects (Langflow folders): every user has a default one, where flows without a folder land. */
import { randomUUID } from 'node:crypto';
import type { ProjectRecord } from '../../protocol/project.schema.js';
import type { Store } from '../store/port.js';

export const DEFAULT_PROJECT_NAME = 'Starter Project';
export const DEFAULT_PROJECT_DESCRIPTION = 'Manage your own projects. Download and upload projects.';

export class ProjectsService {
  constructor(private readonly store: Store) {}

  /** The user's default project, created on first need. */
  async ensureDefault(userId: string): Promise<ProjectRecord> {
    const existing = this.store.projects.listByUser(userId).find((p) => p.name === DEFAULT_PROJECT_NAME);
    if (existing) return existing;
    const project: ProjectRecord = {
      id: randomUUID(),
      name: DEFAULT_PROJECT_NAME,
      description: DEFAULT_PROJECT_DESCRIPTION,
      auth_settings: null,
      parent_id: null,
      user_id: userId,
    };
    await this.store.projects.put(project);
    return project;
  }
}
