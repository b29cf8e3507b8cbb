/** Flow versions in LMDB, keyed [flowId, hash]: one flow's history is one ordered range. */
import type { Database, RootDatabase } from 'lmdb';
import type { FlowVersion, FlowVersionRepo } from '../port.js';
import { answer } from './answer.js';
import { prefixRange } from './keys.js';

type VersionKey = [flowId: string, hash: string];
type StoredVersion = { data: unknown; createdAt: string };

export function lmdbFlowVersions(env: RootDatabase): FlowVersionRepo {
  const versions: Database<StoredVersion, VersionKey> = env.openDB({ name: 'flow_versions', encoding: 'msgpack' });
  const toVersion = ([flowId, hash]: VersionKey, stored: StoredVersion): FlowVersion => ({ flowId, hash, ...stored });

  return {
    get: (flowId, hash) =>
      answer(() => {
        const stored = versions.get([flowId, hash]);
        return stored ? toVersion([flowId, hash], stored) : undefined;
      }),
    list: (flowId) =>
      answer(() => {
        const all = [...versions.getRange(prefixRange(flowId)).map(({ key, value }) => toVersion(key, value))];
        return all.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      }),
    async record({ flowId, hash, data, createdAt }) {
      await versions.ifNoExists([flowId, hash], () => {
        versions.put([flowId, hash], { data, createdAt });
      });
    },
    deleteAll: (flowId) =>
      env.transaction(() => {
        for (const key of versions.getKeys(prefixRange(flowId))) versions.remove(key);
      }),
  };
}
