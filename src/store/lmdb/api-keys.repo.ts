/** API keys in LMDB: `api_keys` by id, `api_key_hashes` for the per-request lookup, `api_keys_by_user` to list. */
import type { Database, RootDatabase } from 'lmdb';
import type { ApiKeyRecord } from '../../../protocol/api-key.schema.js';
import type { ApiKeyRepo } from '../port.js';
import { answer } from './answer.js';
import { prefixRange } from './keys.js';

export function lmdbApiKeys(env: RootDatabase): ApiKeyRepo {
  const keys: Database<ApiKeyRecord, string> = env.openDB({ name: 'api_keys', encoding: 'msgpack' });
  const hashes: Database<string, string> = env.openDB({ name: 'api_key_hashes', encoding: 'msgpack' });
  const byUser: Database<null, [string, string]> = env.openDB({ name: 'api_keys_by_user', encoding: 'msgpack' });

  return {
    get: (id) => answer(() => keys.get(id)),
    getByHash: (hash) =>
      answer(() => {
        const id = hashes.get(hash);
        return id ? keys.get(id) : undefined;
      }),
    listByUser: (userId) =>
      answer(() => [...byUser.getKeys(prefixRange(userId))].map(([, id]) => keys.get(id)).filter((k): k is ApiKeyRecord => k !== undefined)),
    insert: (key) =>
      env.transaction(() => {
        keys.put(key.id, key);
        hashes.put(key.hash, key.id);
        byUser.put([key.user_id, key.id], null);
      }),
    addUsage: (id, uses, lastUsedAt) =>
      env.transaction(() => {
        const key = keys.get(id);
        if (key) keys.put(id, { ...key, total_uses: key.total_uses + uses, last_used_at: lastUsedAt });
      }),
    delete: (id) =>
      env.transaction(() => {
        const key = keys.get(id);
        if (!key) return;
        keys.remove(id);
        hashes.remove(key.hash);
        byUser.remove([key.user_id, id]);
      }),
  };
}
