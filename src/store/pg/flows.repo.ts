/**
 * Flows in PostgreSQL: by id, listed by owner and folder; names and endpoint names unique per owner (constraints).
 * A create that may rename takes the owner's name lock first, so concurrent creates of one name, on any instance,
 * pick their names one after the other and all end up distinct.
 */
import type { Pool, PoolClient } from 'pg';
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import { SIMILAR_SEPARATOR, type NameKind } from '../flow-name-kinds.js';
import type { FlowRenamer, FlowRepo } from '../port.js';
import { SharedRows } from './shared-rows.js';
import { doc, docs, json, lockNames, owner, transaction, uniqueNames } from './sql.js';

/** Decoded records kept for `getShared` (a Langflow flow takes 0.1-0.25 ms to decode). */
const SHARED_MAX = 1000;
const COLUMN: Record<NameKind, 'name' | 'endpoint_name'> = { n: 'name', e: 'endpoint_name' };

const UPSERT = `INSERT INTO flows (id, owner, folder_id, name, endpoint_name, doc) VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, folder_id = excluded.folder_id, name = excluded.name,
  endpoint_name = excluded.endpoint_name, doc = excluded.doc, version = nextval('record_versions')`;

const names = (flow: FlowRecord) => ({ flows_name_key: ['name', flow.name], flows_endpoint_name_key: ['endpoint_name', flow.endpoint_name] }) as const;

export function pgFlows(pool: Pool): FlowRepo {
  const shared = new SharedRows<FlowRecord>(pool, 'flows', SHARED_MAX);
  const byEndpointName = 'SELECT doc FROM flows WHERE owner = $1 AND endpoint_name = $2';

  const write = async (db: Pool | PoolClient, flow: FlowRecord) => {
    const params = [flow.id, owner(flow.user_id), flow.folder_id, flow.name, flow.endpoint_name, json(flow)];
    await uniqueNames(db.query(UPSERT, params), names(flow));
  };

  /** Inside the owner's name lock: is `value` held by a flow other than `flowId`? */
  async function taken(client: PoolClient, flow: FlowRecord, kind: NameKind, value: string): Promise<boolean> {
    const { rowCount } = await client.query(`SELECT 1 FROM flows WHERE owner = $1 AND ${COLUMN[kind]} = $2 AND id <> $3`, [owner(flow.user_id), value, flow.id]);
    return (rowCount ?? 0) > 0;
  }

  async function similar(client: PoolClient, flow: FlowRecord, kind: NameKind, wanted: string): Promise<string[]> {
    const column = COLUMN[kind];
    const { rows } = await client.query<{ taken: string }>(`SELECT ${column} AS taken FROM flows WHERE owner = $1 AND starts_with(${column}, $2)`, [
      owner(flow.user_id),
      wanted + SIMILAR_SEPARATOR[kind],
    ]);
    return rows.map((row) => row.taken);
  }

  async function renamed(client: PoolClient, flow: FlowRecord, renamer: FlowRenamer): Promise<FlowRecord> {
    let next = flow;
    if (await taken(client, next, 'n', next.name)) next = { ...next, name: renamer.name(next.name, await similar(client, next, 'n', next.name)) };
    const endpoint = next.endpoint_name;
    if (endpoint && (await taken(client, next, 'e', endpoint))) {
      next = { ...next, endpoint_name: renamer.endpointName(endpoint, await similar(client, next, 'e', endpoint)) };
    }
    return next;
  }

  return {
    get: (id) => doc(pool, 'SELECT doc FROM flows WHERE id = $1', [id]),
    getByEndpointName: (userId, endpointName) => doc(pool, byEndpointName, [owner(userId), endpointName]),
    getShared: (id) => shared.get(id),
    getSharedByEndpointName: async (userId, endpointName) => {
      const { rows } = await pool.query<{ id: string }>('SELECT id FROM flows WHERE owner = $1 AND endpoint_name = $2', [owner(userId), endpointName]);
      return rows[0] ? shared.get(rows[0].id) : undefined;
    },
    listByUser: (userId) => docs(pool, 'SELECT doc FROM flows WHERE owner = $1 ORDER BY id COLLATE "C"', [owner(userId)]),
    listByFolder: (folderId) => docs(pool, 'SELECT doc FROM flows WHERE folder_id = $1 ORDER BY id COLLATE "C"', [folderId]),
    ids: async () => (await pool.query<{ id: string }>('SELECT id FROM flows ORDER BY id COLLATE "C"')).rows.map((row) => row.id),
    namesOf: async (userId) =>
      (await pool.query<{ name: string }>('SELECT name FROM flows WHERE owner = $1 ORDER BY name COLLATE "C"', [owner(userId)])).rows.map((row) => row.name),
    endpointNamesOf: async (userId) =>
      (
        await pool.query<{ name: string }>('SELECT endpoint_name AS name FROM flows WHERE owner = $1 AND endpoint_name IS NOT NULL ORDER BY endpoint_name COLLATE "C"', [
          owner(userId),
        ])
      ).rows.map((row) => row.name),
    insert: async (flow, renamer) => {
      if (!renamer) {
        const params = [flow.id, owner(flow.user_id), flow.folder_id, flow.name, flow.endpoint_name, json(flow)];
        await uniqueNames(pool.query('INSERT INTO flows (id, owner, folder_id, name, endpoint_name, doc) VALUES ($1, $2, $3, $4, $5, $6)', params), names(flow));
        return flow;
      }
      return transaction(pool, async (client) => {
        await lockNames(client, 'flows', owner(flow.user_id));
        const next = await renamed(client, flow, renamer);
        await write(client, next);
        return next;
      });
    },
    update: (_previous, flow) => write(pool, flow),
    moveToFolder: (userId, flowIds, folderId) =>
      transaction(pool, async (client) => {
        const moving = await docs<FlowRecord>(
          client,
          'SELECT doc FROM flows WHERE id = ANY($1) AND owner = $2 AND folder_id IS DISTINCT FROM $3 ORDER BY id COLLATE "C" FOR UPDATE',
          [[...new Set(flowIds)], userId, folderId],
        );
        for (const flow of moving) {
          const moved = { ...flow, folder_id: folderId };
          await client.query(`UPDATE flows SET folder_id = $2, doc = $3, version = nextval('record_versions') WHERE id = $1`, [flow.id, folderId, json(moved)]);
        }
        return moving.length;
      }),
    delete: async (flow) => {
      await pool.query('DELETE FROM flows WHERE id = $1', [flow.id]);
    },
  };
}
