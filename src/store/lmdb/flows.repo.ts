/**
 * Flows in LMDB: `flows` by id; `flows_by_owner` and `flows_by_folder` for listing; `flow_names` holds the
 * per-owner unique names and endpoint names, checked inside the write transaction so concurrent creates of the
 * same name cannot both win.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import type { FlowRepo, UniqueWrite } from '../port.js';
import { owner, prefixRange } from './keys.js';

type NameKey = [owner: string, kind: 'n' | 'e', name: string];

export function lmdbFlows(env: RootDatabase): FlowRepo {
  const flows: Database<FlowRecord, string> = env.openDB({ name: 'flows', encoding: 'msgpack' });
  const byOwner: Database<null, [string, string]> = env.openDB({ name: 'flows_by_owner', encoding: 'msgpack' });
  const byFolder: Database<null, [string, string]> = env.openDB({ name: 'flows_by_folder', encoding: 'msgpack' });
  const names: Database<string, NameKey> = env.openDB({ name: 'flow_names', encoding: 'msgpack' });

  const nameKey = (flow: FlowRecord): NameKey => [owner(flow.user_id), 'n', flow.name];
  const endpointKey = (flow: FlowRecord): NameKey | undefined =>
    flow.endpoint_name ? [owner(flow.user_id), 'e', flow.endpoint_name] : undefined;

  const resolve = (ids: Iterable<[string, string]>) =>
    [...ids].map(([, id]) => flows.get(id)).filter((f): f is FlowRecord => f !== undefined);

  const namesOfKind = (userId: string | null, kind: 'n' | 'e') => [...names.getKeys(prefixRange(owner(userId), kind))].map((k) => k[2]);

  /** Inside a transaction: is this unique name free for `flowId`? */
  const free = (key: NameKey | undefined, flowId: string) => {
    if (!key) return true;
    const holder = names.get(key);
    return holder === undefined || holder === flowId;
  };

  function index(flow: FlowRecord): void {
    flows.put(flow.id, flow);
    byOwner.put([owner(flow.user_id), flow.id], null);
    if (flow.folder_id) byFolder.put([flow.folder_id, flow.id], null);
    names.put(nameKey(flow), flow.id);
    const ep = endpointKey(flow);
    if (ep) names.put(ep, flow.id);
  }

  function unindex(flow: FlowRecord): void {
    byOwner.remove([owner(flow.user_id), flow.id]);
    if (flow.folder_id) byFolder.remove([flow.folder_id, flow.id]);
    names.remove(nameKey(flow));
    const ep = endpointKey(flow);
    if (ep) names.remove(ep);
  }

  function guarded(flow: FlowRecord, write: () => void): UniqueWrite {
    if (!free(nameKey(flow), flow.id)) return { ok: false, clash: 'name' };
    if (!free(endpointKey(flow), flow.id)) return { ok: false, clash: 'endpoint_name' };
    write();
    return { ok: true };
  }

  return {
    get: (id) => flows.get(id),
    getByEndpointName(userId, endpointName) {
      const id = names.get([owner(userId), 'e', endpointName]);
      return id ? flows.get(id) : undefined;
    },
    listByUser: (userId) => resolve(byOwner.getKeys(prefixRange(owner(userId)))),
    listByFolder: (folderId) => resolve(byFolder.getKeys(prefixRange(folderId))),
    namesOf: (userId) => namesOfKind(userId, 'n'),
    endpointNamesOf: (userId) => namesOfKind(userId, 'e'),
    insert: (flow) => env.transaction(() => guarded(flow, () => index(flow))),
    update: (previous, flow) =>
      env.transaction(() =>
        guarded(flow, () => {
          unindex(previous);
          index(flow);
        }),
      ),
    delete: (flow) =>
      env.transaction(() => {
        unindex(flow);
        flows.remove(flow.id);
      }),
  };
}
