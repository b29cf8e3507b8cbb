/**
 * Flows in LMDB: `flows` by id; `flows_by_owner` and `flows_by_folder` for listing; `flow_names` holds the
 * per-owner unique names and endpoint names. Uniqueness is checked, and a taken name renamed, inside the write
 * transaction, so concurrent creates of the same name cannot both win.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import { NameTakenError } from '../name-taken.error.js';
import type { FlowRenamer, FlowRepo } from '../port.js';
import { answer } from './answer.js';
import { SimilarNames, type NameKind } from './flow-similar-names.js';
import { owner, prefixRange } from './keys.js';
import { SharedRecords } from './shared-records.js';
import { textPrefixRange } from './name-prefix.js';

/** Decoded records kept for `getShared` (a Langflow flow takes 0.1-0.25 ms to decode). */
const SHARED_MAX = 1000;
type NameKey = [owner: string, kind: NameKind, name: string];

export function lmdbFlows(env: RootDatabase): FlowRepo {
  const flows: Database<FlowRecord, string> = env.openDB({ name: 'flows', encoding: 'msgpack' });
  const byOwner: Database<null, [string, string]> = env.openDB({ name: 'flows_by_owner', encoding: 'msgpack' });
  const byFolder: Database<null, [string, string]> = env.openDB({ name: 'flows_by_folder', encoding: 'msgpack' });
  const names: Database<string, NameKey> = env.openDB({ name: 'flow_names', encoding: 'msgpack' });

  const nameKey = (flow: FlowRecord): NameKey => [owner(flow.user_id), 'n', flow.name];
  const endpointKey = (flow: FlowRecord): NameKey | undefined =>
    flow.endpoint_name ? [owner(flow.user_id), 'e', flow.endpoint_name] : undefined;

  const shared = new SharedRecords<FlowRecord>(SHARED_MAX, (id) => flows.get(id));
  const getShared = (id: string) => shared.get(id);

  const written = <T>(ids: Iterable<string>, write: Promise<T>): Promise<T> =>
    shared.written(
      ids,
      write.catch((error: unknown) => {
        // The memo followed writes that did not land (a clash is refused before the memo or the store changes).
        if (!(error instanceof NameTakenError)) similarNames.clear();
        throw error;
      }),
    );

  const resolve = (ids: Iterable<[string, string]>) =>
    [...ids].map(([, id]) => flows.get(id)).filter((f): f is FlowRecord => f !== undefined);

  const namesOfKind = (userId: string | null, kind: NameKind) => [...names.getKeys(prefixRange(owner(userId), kind))].map((k) => k[2]);

  const namesStartingWith = (ownerKey: string, kind: NameKind, text: string) =>
    [...names.getKeys(textPrefixRange([ownerKey, kind], text))].map((k) => k[2]);

  /** The similar names handed to the renamer, without reading them all on every rename. */
  const similarNames = new SimilarNames(namesStartingWith);

  /** Inside a transaction: is this unique name free for `flowId`? */
  const free = (key: NameKey | undefined, flowId: string) => {
    if (!key) return true;
    const holder = names.get(key);
    return holder === undefined || holder === flowId;
  };

  /** Inside a transaction: the flow with taken names replaced by the renamer's choice. */
  function renamed(flow: FlowRecord, renamer: FlowRenamer): FlowRecord {
    let next = flow;
    if (!free(nameKey(next), next.id)) {
      next = { ...next, name: renamer.name(next.name, similarNames.of(owner(next.user_id), 'n', next.name, renamer)) };
    }
    if (next.endpoint_name && !free(endpointKey(next), next.id)) {
      const similar = similarNames.of(owner(next.user_id), 'e', next.endpoint_name, renamer);
      next = { ...next, endpoint_name: renamer.endpointName(next.endpoint_name, similar) };
    }
    return next;
  }

  /** Inside a transaction, before it writes: refuses a name or endpoint name another flow of the owner holds. */
  function refuseClash(flow: FlowRecord): void {
    if (!free(nameKey(flow), flow.id)) throw new NameTakenError('name', flow.name);
    if (!free(endpointKey(flow), flow.id)) throw new NameTakenError('endpoint_name', flow.endpoint_name!);
  }

  function index(flow: FlowRecord): void {
    flows.put(flow.id, flow);
    byOwner.put([owner(flow.user_id), flow.id], null);
    if (flow.folder_id) byFolder.put([flow.folder_id, flow.id], null);
    names.put(nameKey(flow), flow.id);
    const ep = endpointKey(flow);
    if (ep) names.put(ep, flow.id);
    similarNames.added(owner(flow.user_id), 'n', flow.name);
    if (ep) similarNames.added(owner(flow.user_id), 'e', ep[2]);
  }

  function unindex(flow: FlowRecord): void {
    byOwner.remove([owner(flow.user_id), flow.id]);
    if (flow.folder_id) byFolder.remove([flow.folder_id, flow.id]);
    names.remove(nameKey(flow));
    const ep = endpointKey(flow);
    if (ep) names.remove(ep);
    similarNames.removed(owner(flow.user_id), 'n', flow.name);
    if (ep) similarNames.removed(owner(flow.user_id), 'e', ep[2]);
  }

  return {
    get: (id) => answer(() => flows.get(id)),
    getByEndpointName: (userId, endpointName) =>
      answer(() => {
        const id = names.get([owner(userId), 'e', endpointName]);
        return id ? flows.get(id) : undefined;
      }),
    getShared: (id) => answer(() => getShared(id)),
    getSharedByEndpointName: (userId, endpointName) =>
      answer(() => {
        const id = names.get([owner(userId), 'e', endpointName]);
        return id ? getShared(id) : undefined;
      }),
    listByUser: (userId) => answer(() => resolve(byOwner.getKeys(prefixRange(owner(userId))))),
    listByFolder: (folderId) => answer(() => resolve(byFolder.getKeys(prefixRange(folderId)))),
    ids: () => answer(() => [...flows.getKeys()]),
    namesOf: (userId) => answer(() => namesOfKind(userId, 'n')),
    endpointNamesOf: (userId) => answer(() => namesOfKind(userId, 'e')),
    insert: (flow, renamer) =>
      written(
        [flow.id],
        env.transaction(() => {
          const next = renamer ? renamed(flow, renamer) : flow;
          refuseClash(next);
          index(next);
          return next;
        }),
      ),
    update: (previous, flow) =>
      written(
        [flow.id],
        env.transaction(() => {
          refuseClash(flow);
          // Unindex what is stored now: a concurrent move may have changed it since the caller read `previous`.
          unindex(flows.get(flow.id) ?? previous);
          index(flow);
        }),
      ),
    moveToFolder: (userId, flowIds, folderId) =>
      written(
        flowIds,
        env.transaction(() => {
          let moved = 0;
          for (const id of new Set(flowIds)) {
            const flow = flows.get(id);
            if (!flow || flow.user_id !== userId || flow.folder_id === folderId) continue;
            if (flow.folder_id) byFolder.remove([flow.folder_id, id]);
            flows.put(id, { ...flow, folder_id: folderId });
            byFolder.put([folderId, id], null);
            moved++;
          }
          return moved;
        }),
      ),
    delete: (flow) =>
      written(
        [flow.id],
        env.transaction(() => {
          unindex(flows.get(flow.id) ?? flow);
          flows.remove(flow.id);
        }),
      ),
  };
}
