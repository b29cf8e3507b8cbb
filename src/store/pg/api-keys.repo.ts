/** API keys in PostgreSQL: by id, by hash (the per-request lookup) and by user. */
import type { Pool } from 'pg';
import type { ApiKeyRecord } from '../../../protocol/api-key.schema.js';
import type { ApiKeyRepo } from '../port.js';
import { doc, docs, json, transaction } from './sql.js';

export function pgApiKeys(pool: Pool): ApiKeyRepo {
  return {
    get: (id) => doc(pool, 'SELECT doc FROM api_keys WHERE id = $1', [id]),
    getByHash: (hash) => doc(pool, 'SELECT doc FROM api_keys WHERE hash = $1', [hash]),
    listByUser: (userId) => docs(pool, 'SELECT doc FROM api_keys WHERE user_id = $1 ORDER BY id COLLATE "C"', [userId]),
    insert: async (key) => {
      await pool.query('INSERT INTO api_keys (id, hash, user_id, doc) VALUES ($1, $2, $3, $4)', [key.id, key.hash, key.user_id, json(key)]);
    },
    // Read and rewritten under the row's lock: instances flushing their counts at once add up rather than overwrite.
    addUsage: (id, uses, lastUsedAt) =>
      transaction(pool, async (client) => {
        const key = await doc<ApiKeyRecord>(client, 'SELECT doc FROM api_keys WHERE id = $1 FOR UPDATE', [id]);
        if (!key) return;
        const next = { ...key, total_uses: key.total_uses + uses, last_used_at: lastUsedAt };
        await client.query('UPDATE api_keys SET doc = $2 WHERE id = $1', [id, json(next)]);
      }),
    delete: async (id) => {
      await pool.query('DELETE FROM api_keys WHERE id = $1', [id]);
    },
  };
}
