/** v2 file records in LMDB: `files` by id, `file_owners` [userId, id] as the per-user index. */
import type { Database, RootDatabase } from 'lmdb';
import type { FileRecord } from '../../../protocol/file.schema.js';
import type { FileRepo } from '../port.js';
import { answer } from './answer.js';
import { prefixRange } from './keys.js';

export function lmdbFiles(env: RootDatabase): FileRepo {
  const files: Database<FileRecord, string> = env.openDB({ name: 'files', encoding: 'msgpack' });
  const owners: Database<string, [string, string]> = env.openDB({ name: 'file_owners', encoding: 'msgpack' });

  return {
    get: (id) => answer(() => files.get(id)),
    listByUser: (userId) =>
      answer(() => [...owners.getRange(prefixRange(userId))].map(({ value }) => files.get(value)).filter((f): f is FileRecord => f !== undefined)),
    put: (file) =>
      env.transaction(() => {
        owners.put([file.user_id, file.id], file.id);
        files.put(file.id, file);
      }),
    delete: (file) =>
      env.transaction(() => {
        owners.remove([file.user_id, file.id]);
        files.remove(file.id);
      }),
  };
}
