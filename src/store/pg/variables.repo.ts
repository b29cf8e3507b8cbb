/** Variables in PostgreSQL: by id, the name unique per user (the row's name moves with a rename). */
import type { Pool } from 'pg';
import type { VariableRepo } from '../port.js';
import { doc, docs, json, uniqueNames } from './sql.js';

export function pgVariables(pool: Pool): VariableRepo {
  return {
    get: (id) => doc(pool, 'SELECT doc FROM variables WHERE id = $1', [id]),
    getByName: (userId, name) => doc(pool, 'SELECT doc FROM variables WHERE user_id = $1 AND name = $2', [userId, name]),
    listByUser: (userId) => docs(pool, 'SELECT doc FROM variables WHERE user_id = $1 ORDER BY name COLLATE "C"', [userId]),
    put: async (variable) => {
      const upsert = pool.query(
        `INSERT INTO variables (id, user_id, name, doc) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, name = excluded.name, doc = excluded.doc`,
        [variable.id, variable.user_id, variable.name, json(variable)],
      );
      await uniqueNames(upsert, { variables_name_key: ['name', variable.name] });
    },
    delete: async (variable) => {
      await pool.query('DELETE FROM variables WHERE id = $1', [variable.id]);
    },
  };
}
