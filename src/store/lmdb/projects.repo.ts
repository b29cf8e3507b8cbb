/**
 * Projects in LMDB: `projects` by id, `projects_by_owner` to list, `project_names` for the per-owner unique names
 * (Langflow's unique (user_id, name)), checked and renamed inside the write transaction.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { ProjectRecord } from '../../../protocol/project.schema.js';
import { NameTakenError } from '../name-taken.error.js';
import type { ProjectRepo } from '../port.js';
import { answer } from './answer.js';
import { owner, prefixRange } from './keys.js';
import { textPrefixRange } from './name-prefix.js';

export function lmdbProjects(env: RootDatabase): ProjectRepo {
  const projects: Database<ProjectRecord, string> = env.openDB({ name: 'projects', encoding: 'msgpack' });
  const byOwner: Database<null, [string, string]> = env.openDB({ name: 'projects_by_owner', encoding: 'msgpack' });
  const names: Database<string, [string, string]> = env.openDB({ name: 'project_names', encoding: 'msgpack' });

  const nameKey = (project: ProjectRecord): [string, string] => [owner(project.user_id), project.name];
  const free = (project: ProjectRecord) => {
    const holder = names.get(nameKey(project));
    return holder === undefined || holder === project.id;
  };

  function index(project: ProjectRecord): void {
    projects.put(project.id, project);
    byOwner.put([owner(project.user_id), project.id], null);
    names.put(nameKey(project), project.id);
  }

  return {
    get: (id) => answer(() => projects.get(id)),
    getByName: (userId, name) =>
      answer(() => {
        const id = names.get([owner(userId), name]);
        return id ? projects.get(id) : undefined;
      }),
    listByUser: (userId) =>
      answer(() => [...byOwner.getKeys(prefixRange(owner(userId)))].map(([, id]) => projects.get(id)).filter((p): p is ProjectRecord => p !== undefined)),
    // A clash throws before the transaction writes anything (lmdb keeps what a throwing callback already wrote).
    insert: (project, renamer) =>
      env.transaction(() => {
        let next = project;
        if (!free(next) && renamer) {
          const similar = [...names.getKeys(textPrefixRange([owner(next.user_id)], next.name))].map((k) => k[1]);
          next = { ...next, name: renamer(next.name, similar) };
        }
        if (!free(next)) throw new NameTakenError('name', next.name);
        index(next);
        return next;
      }),
    update: (project) =>
      env.transaction(() => {
        const previous = projects.get(project.id);
        if (!free(project)) throw new NameTakenError('name', project.name);
        if (previous) names.remove(nameKey(previous));
        index(project);
      }),
    delete: (id) =>
      env.transaction(() => {
        const project = projects.get(id);
        if (!project) return;
        projects.remove(id);
        byOwner.remove([owner(project.user_id), id]);
        names.remove(nameKey(project));
      }),
  };
}
