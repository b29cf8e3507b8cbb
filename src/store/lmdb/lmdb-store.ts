/** The LMDB implementation of the storage port: one environment under the data dir, msgpackr values. */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import type { Store } from '../port.js';
import { storeLife } from '../store-life.js';
import { answer } from './answer.js';
import { lmdbApiKeys } from './api-keys.repo.js';
import { lmdbFlowVersions } from './flow-versions.repo.js';
import { lmdbFlows } from './flows.repo.js';
import { lmdbJobs } from './jobs.repo.js';
import { lmdbKnowledge } from './knowledge.repo.js';
import { lmdbMessages } from './messages.repo.js';
import { lmdbProjects } from './projects.repo.js';
import { lmdbResponses } from './responses.repo.js';
import { lmdbRunRecords } from './run-records.repo.js';
import { lmdbUsers } from './users.repo.js';
import { lmdbVariables } from './variables.repo.js';
import { lmdbFiles } from './files.repo.js';
import { lmdbVertexBuilds } from './vertex-builds.repo.js';

/** How commits reach the disk: see `STORE_SYNC` in src/config.ts. */
export type StoreSync = 'full' | 'nometa' | 'off';

/** lmdb's options for each mode (`full` is lmdb's default: overlapping sync, a flush per commit). */
const SYNC_OPTIONS: Record<StoreSync, { noMetaSync?: boolean; noSync?: boolean }> = {
  full: {},
  nometa: { noMetaSync: true },
  off: { noSync: true },
};

/** Where a data dir keeps its LMDB environment. */
const storePath = (dataDir: string) => join(dataDir, 'db');

/** Whether a store was ever opened in `dataDir` (its environment file exists), without creating one. */
export const holdsLmdbStore = (dataDir: string): boolean => existsSync(join(storePath(dataDir), 'data.mdb'));

export function openLmdbStore(dataDir: string, sync: StoreSync = 'full'): Store {
  const path = storePath(dataDir);
  mkdirSync(path, { recursive: true });
  const env = open({ path, maxDbs: 64, encoding: 'msgpack', ...SYNC_OPTIONS[sync] });
  const settings = env.openDB<string, string>({ name: 'settings', encoding: 'msgpack' });
  // lmdb throws from a timer (an uncaught exception) when written after close: storeLife refuses first.
  let probes = 0;
  const writeAndReadBack = async () => {
    const probe = `${process.pid}:${++probes}`;
    await settings.put('health.probe', probe);
    if (settings.get('health.probe') !== probe) throw new Error('store read-back mismatch');
  };

  return {
    users: lmdbUsers(env),
    apiKeys: lmdbApiKeys(env),
    flows: lmdbFlows(env),
    projects: lmdbProjects(env),
    messages: lmdbMessages(env),
    variables: lmdbVariables(env),
    files: lmdbFiles(env),
    flowVersions: lmdbFlowVersions(env),
    jobs: lmdbJobs(env),
    responses: lmdbResponses(env),
    vertexBuilds: lmdbVertexBuilds(env),
    runRecords: lmdbRunRecords(env),
    knowledge: lmdbKnowledge(env),
    settings: {
      get: (name) => answer(() => settings.get(name)),
      put: async (name, value) => {
        await settings.put(name, value);
      },
      putIfAbsent: (name, value) =>
        env.transaction(() => {
          const kept = settings.get(name);
          if (kept !== undefined) return kept;
          settings.put(name, value);
          return value;
        }),
    },
    openedAlone: () => Promise.resolve(true),
    ...storeLife(writeAndReadBack, () => env.close()),
  };
}
