/** Responses in LMDB, keyed by response id. A plain put joins LMDB's batch commit with the other writes of its tick. */
import type { Database, RootDatabase } from 'lmdb';
import type { StoredResponse } from '../../../protocol/responses.schema.js';
import type { ResponseRepo } from '../port.js';

export function lmdbResponses(env: RootDatabase): ResponseRepo {
  const responses: Database<StoredResponse, string> = env.openDB({ name: 'responses', encoding: 'msgpack' });
  return {
    get: (id) => responses.get(id),
    put: async (record) => {
      await responses.put(record.id, record);
    },
  };
}
