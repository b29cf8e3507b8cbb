/** Projects in LMDB: `projects` by id, `projects_by_owner` to list. */
import type { Database, RootDatabase } from 'lmdb';
import type { ProjectRecord } from '../../../protocol/project.schema.js';
import type { ProjectRepo } from '../port.js';
import { owner, prefixRange } from './keys.js';

export function lmdbProjects(env: RootDatabase): ProjectRepo {
  const projects: Database<ProjectRecord, string> = env.openDB({ name: 'projects', encoding: 'msgpack' });
  const byOwner: Database<null, [string, string]> = env.openDB({ name: 'projects_by_owner', encoding: 'msgpack' });

  return {
    get: (id) => projects.get(id),
    listByUser: (userId) =>
      [...byOwner.getKeys(prefixRange(owner(userId)))].map(([, id]) => projects.get(id)).filter((p): p is ProjectRecord => p !== undefined),
    put: (project) =>
      env.transaction(() => {
        projects.put(project.id, project);
        byOwner.put([owner(project.user_id), project.id], null);
      }),
    delete: (id) =>
      env.transaction(() => {
        const project = projects.get(id);
        if (!project) return;
        projects.remove(id);
        byOwner.remove([owner(project.user_id), id]);
      }),
  };
}
