/**
 * Vertex builds in PostgreSQL: a flow's builds by vertex, oldest first (`seq` is the arrival order), each vertex
 * keeping its newest few. One call is one transaction: the builds of a run go in one insert, and one delete trims
 * the vertices they touched.
 */
import type { Pool } from 'pg';
import type { VertexBuildRecord } from '../../../protocol/build.schema.js';
import type { VertexBuildRepo } from '../port.js';
import { docs, json, transaction } from './sql.js';

// Numbered in the order given, so that `seq` follows the builds' order within one call too.
const INSERT = `INSERT INTO vertex_builds (flow_id, vertex_id, doc)
  SELECT flow_id, vertex_id, doc FROM unnest($1::text[], $2::text[], $3::json[]) WITH ORDINALITY AS b(flow_id, vertex_id, doc, n) ORDER BY n`;

// Ranks the touched vertices' builds newest first and drops those past the number kept.
const TRIM = `DELETE FROM vertex_builds WHERE seq IN (
  SELECT seq FROM (
    SELECT seq, row_number() OVER (PARTITION BY flow_id, vertex_id ORDER BY seq DESC) AS newest
    FROM vertex_builds WHERE (flow_id, vertex_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
  ) ranked WHERE newest > $3)`;

export function pgVertexBuilds(pool: Pool): VertexBuildRepo {
  return {
    add: async (records: VertexBuildRecord[], keepPerVertex: number) => {
      if (records.length === 0) return;
      const flows = records.map((r) => r.flow_id);
      const vertices = records.map((r) => r.id);
      await transaction(pool, async (client) => {
        await client.query(INSERT, [flows, vertices, records.map(json)]);
        await client.query(TRIM, [flows, vertices, keepPerVertex]);
      });
    },
    listByFlow: (flowId) => docs(pool, 'SELECT doc FROM vertex_builds WHERE flow_id = $1 ORDER BY vertex_id COLLATE "C", seq', [flowId]),
    deleteByFlow: async (flowId) => {
      await pool.query('DELETE FROM vertex_builds WHERE flow_id = $1', [flowId]);
    },
  };
}
