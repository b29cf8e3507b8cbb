/** Flow versions in PostgreSQL, keyed (flow, hash); the first record of a hash stays. */
import type { Pool } from 'pg';
import type { FlowVersion, FlowVersionRepo } from '../port.js';
import { json } from './sql.js';

interface VersionRow {
  flow_id: string;
  hash: string;
  created_at: string;
  data: unknown;
}

const toVersion = (row: VersionRow): FlowVersion => ({ flowId: row.flow_id, hash: row.hash, data: row.data, createdAt: row.created_at });

export function pgFlowVersions(pool: Pool): FlowVersionRepo {
  return {
    get: async (flowId, hash) => {
      const { rows } = await pool.query<VersionRow>('SELECT * FROM flow_versions WHERE flow_id = $1 AND hash = $2', [flowId, hash]);
      return rows[0] && toVersion(rows[0]);
    },
    list: async (flowId) => {
      const { rows } = await pool.query<VersionRow>('SELECT * FROM flow_versions WHERE flow_id = $1 ORDER BY created_at COLLATE "C", hash COLLATE "C"', [flowId]);
      return rows.map(toVersion);
    },
    record: async ({ flowId, hash, data, createdAt }) => {
      await pool.query('INSERT INTO flow_versions (flow_id, hash, created_at, data) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [flowId, hash, createdAt, json(data)]);
    },
    deleteAll: async (flowId) => {
      await pool.query('DELETE FROM flow_versions WHERE flow_id = $1', [flowId]);
    },
  };
}
