/**
 * Vertex builds in LMDB, keyed [flowId, vertexId, seq]: a flow's builds are one ordered range, a vertex's its
 * sub-range (oldest first), so keeping the newest few per vertex and deleting a flow's builds are range scans.
 * Values are JSON text: a build's data is nested message and result dicts of many shapes, which V8's JSON encodes
 * several times cheaper than msgpack (whose shared structures would also grow with every new shape).
 */
import type { Database, RootDatabase } from 'lmdb';
import type { VertexBuildRecord } from '../../../protocol/build.schema.js';
import type { VertexBuildRepo } from '../port.js';
import { answer } from './answer.js';
import { prefixRange } from './keys.js';

type BuildKey = [flowId: string, vertexId: string, seq: number];

let last = 0;
/** Increasing across the process and restarts (microseconds since the epoch), so keys sort in arrival order. */
function nextSeq(): number {
  last = Math.max(Date.now() * 1000, last + 1);
  return last;
}

const done = () => undefined;

export function lmdbVertexBuilds(env: RootDatabase): VertexBuildRepo {
  const builds: Database<string, BuildKey> = env.openDB({ name: 'vertex_builds', encoding: 'string' });

  return {
    add: (records, keepPerVertex) => {
      try {
        // Plain puts and removes of one tick: one commit shared with the other writes of that moment.
        const writes: Promise<unknown>[] = [];
        for (const record of records) {
          const older = [...builds.getKeys(prefixRange(record.flow_id, record.id))];
          for (const key of older.slice(0, Math.max(0, older.length + 1 - keepPerVertex))) writes.push(builds.remove(key));
          writes.push(builds.put([record.flow_id, record.id, nextSeq()], JSON.stringify(record)));
        }
        return Promise.all(writes).then(done);
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
    listByFlow: (flowId) => answer(() => [...builds.getRange(prefixRange(flowId)).map(({ value }) => JSON.parse(value) as VertexBuildRecord)]),
    deleteByFlow: (flowId) =>
      env.transaction(() => {
        for (const key of builds.getKeys(prefixRange(flowId))) builds.remove(key);
      }),
  };
}
