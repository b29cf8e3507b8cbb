/** Projects in PostgreSQL: by id, listed by owner, the name unique per owner (renamed under the owner's name lock). */
import type { Pool } from 'pg';
import type { ProjectRepo } from '../port.js';
import { doc, docs, json, lockNames, owner, transaction, uniqueNames } from './sql.js';

const UPSERT = `INSERT INTO projects (id, owner, name, doc) VALUES ($1, $2, $3, $4)
  ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, name = excluded.name, doc = excluded.doc`;

export function pgProjects(pool: Pool): ProjectRepo {
  return {
    get: (id) => doc(pool, 'SELECT doc FROM projects WHERE id = $1', [id]),
    getByName: (userId, name) => doc(pool, 'SELECT doc FROM projects WHERE owner = $1 AND name = $2', [owner(userId), name]),
    listByUser: (userId) => docs(pool, 'SELECT doc FROM projects WHERE owner = $1 ORDER BY id COLLATE "C"', [owner(userId)]),
    insert: (project, renamer) =>
      transaction(pool, async (client) => {
        let next = project;
        if (renamer) {
          await lockNames(client, 'projects', owner(project.user_id));
          const { rows } = await client.query<{ name: string }>('SELECT name FROM projects WHERE owner = $1 AND starts_with(name, $2)', [owner(project.user_id), project.name]);
          if (rows.some((row) => row.name === project.name)) next = { ...project, name: renamer(project.name, rows.map((row) => row.name)) };
        }
        const params = [next.id, owner(next.user_id), next.name, json(next)];
        await uniqueNames(client.query('INSERT INTO projects (id, owner, name, doc) VALUES ($1, $2, $3, $4)', params), { projects_name_key: ['name', next.name] });
        return next;
      }),
    update: async (project) => {
      const params = [project.id, owner(project.user_id), project.name, json(project)];
      await uniqueNames(pool.query(UPSERT, params), { projects_name_key: ['name', project.name] });
    },
    delete: async (id) => {
      await pool.query('DELETE FROM projects WHERE id = $1', [id]);
    },
  };
}
