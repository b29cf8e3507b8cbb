/**
 * Responses in LMDB, keyed by response id; `responses_unfinished` holds the ids of background responses still running.
 * A plain put joins LMDB's batch commit with the other writes of its tick.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { StoredResponse } from '../../../protocol/responses.schema.js';
import type { ResponseRepo } from '../port.js';
import { answer } from './answer.js';

export function lmdbResponses(env: RootDatabase): ResponseRepo {
  const responses: Database<StoredResponse, string> = env.openDB({ name: 'responses', encoding: 'msgpack' });
  const unfinished: Database<null, string> = env.openDB({ name: 'responses_unfinished', encoding: 'msgpack' });
  return {
    get: (id) => answer(() => responses.get(id)),
    put: async (record) => {
      const index = record.response.status === 'in_progress' ? unfinished.put(record.id, null) : unfinished.remove(record.id);
      await Promise.all([responses.put(record.id, record), index]);
    },
    unfinished: () => answer(() => [...unfinished.getKeys()].map((id) => responses.get(id)).filter((r): r is StoredResponse => r !== undefined)),
  };
}
