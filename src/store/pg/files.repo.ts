/** v2 file records in PostgreSQL, by id and by owner. */
import type { Pool } from 'pg';
import type { FileRepo } from '../port.js';
import { doc, docs, json } from './sql.js';

export function pgFiles(pool: Pool): FileRepo {
  return {
    get: (id) => doc(pool, 'SELECT doc FROM files WHERE id = $1', [id]),
    listByUser: (userId) => docs(pool, 'SELECT doc FROM files WHERE user_id = $1 ORDER BY id COLLATE "C"', [userId]),
    put: async (file) => {
      await pool.query('INSERT INTO files (id, user_id, doc) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, doc = excluded.doc', [
        file.id,
        file.user_id,
        json(file),
      ]);
    },
    delete: async (file) => {
      await pool.query('DELETE FROM files WHERE id = $1', [file.id]);
    },
  };
}
