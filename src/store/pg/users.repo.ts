/** Users in PostgreSQL: `users` by id, the username unique. */
import type { Pool } from 'pg';
import type { UserRecord } from '../../../protocol/user.schema.js';
import type { UserRepo } from '../port.js';
import { SharedRows } from './shared-rows.js';
import { doc, docs, json, uniqueNames } from './sql.js';

/** Users whose decoded record is kept for getShared. */
const SHARED_MAX = 10_000;

const UPSERT = `INSERT INTO users (id, username, doc) VALUES ($1, $2, $3)
  ON CONFLICT (id) DO UPDATE SET username = excluded.username, doc = excluded.doc, version = nextval('record_versions')`;

export function pgUsers(pool: Pool): UserRepo {
  const shared = new SharedRows<UserRecord>(pool, 'users', SHARED_MAX);
  const write = async (sql: string, user: UserRecord) => {
    await uniqueNames(pool.query(sql, [user.id, user.username, json(user)]), { users_username_key: ['username', user.username] });
  };
  return {
    get: (id) => doc(pool, 'SELECT doc FROM users WHERE id = $1', [id]),
    getShared: (id) => shared.get(id),
    getByUsername: (username) => doc(pool, 'SELECT doc FROM users WHERE username = $1', [username]),
    list: () => docs(pool, 'SELECT doc FROM users ORDER BY id COLLATE "C"', []),
    insert: (user) => write('INSERT INTO users (id, username, doc) VALUES ($1, $2, $3)', user),
    update: (user) => write(UPSERT, user),
    delete: async (id) => {
      await pool.query('DELETE FROM users WHERE id = $1', [id]);
    },
  };
}
