/**
 * Records of what ran in PostgreSQL: one row per trace, its spans inside the JSON text (written once, read rarely),
 * beside the columns its listings filter and order by. The traces that ended together go in one insert; retention
 * reads `expires_at`.
 */
import type { Pool } from 'pg';
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import type { PreparedTrace, RunRecordRepo, TraceIndexEntry } from '../port.js';

interface IndexRow {
  id: string;
  user_id: string;
  flow_id: string;
  session_id: string;
  started_at: string;
  span_count: number;
}

const INDEX_COLUMNS = 'id, user_id, flow_id, session_id, started_at, span_count';
const entryOf = (row: IndexRow): TraceIndexEntry => ({ id: row.id, userId: row.user_id, flowId: row.flow_id, sessionId: row.session_id, startedAt: Number(row.started_at), spanCount: row.span_count });
const parsed = (rows: { doc: string }[]) => rows.map((row) => JSON.parse(row.doc) as TraceRecord);

const INSERT = `INSERT INTO run_traces (id, user_id, flow_id, session_id, started_at, span_count, expires_at, doc)
  SELECT id, user_id, flow_id, session_id, started_at, span_count, $7, doc
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::int[], $8::text[]) AS t(id, user_id, flow_id, session_id, started_at, span_count, doc)
  ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, span_count = excluded.span_count, expires_at = excluded.expires_at`;

/** A trace ready for its insert: its columns, its document as text. */
interface TraceRow extends PreparedTrace {
  readonly doc: string;
}

const traceRow = (trace: TraceRecord): TraceRow => ({
  id: trace.id,
  userId: trace.userId,
  flowId: trace.flowId,
  sessionId: trace.sessionId,
  startedAt: trace.startedAt,
  spanCount: trace.spans.length,
  doc: JSON.stringify(trace),
});

export function pgRunRecords(pool: Pool): RunRecordRepo {
  return {
    prepare: (trace) => traceRow(trace.record()),
    // Only what `prepare` made reaches `put` (the port's contract).
    put: async (traces: readonly TraceRow[], expiresAt) => {
      if (traces.length === 0) return;
      const column = <T>(pick: (trace: TraceRow) => T) => traces.map(pick);
      await pool.query(INSERT, [
        column((t) => t.id),
        column((t) => t.userId),
        column((t) => t.flowId),
        column((t) => t.sessionId),
        column((t) => t.startedAt),
        column((t) => t.spanCount),
        expiresAt,
        column((t) => t.doc),
      ]);
    },
    trace: async (userId, id) => {
      const { rows } = await pool.query<{ doc: string }>('SELECT doc FROM run_traces WHERE id = $1 AND user_id = $2', [id, userId]);
      return parsed(rows)[0];
    },
    traces: async (entries) => {
      if (entries.length === 0) return [];
      const { rows } = await pool.query<{ doc: string; id: string }>('SELECT id, doc FROM run_traces WHERE id = ANY($1::text[])', [entries.map((e) => e.id)]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      // In the listing's order; those deleted since it was read are left out.
      return parsed(entries.flatMap((entry) => byId.get(entry.id) ?? []));
    },
    traceIndex: async (userId, flowId) => {
      const filter = flowId === undefined ? 'user_id = $1' : 'user_id = $1 AND flow_id = $2';
      const { rows } = await pool.query<IndexRow>(`SELECT ${INDEX_COLUMNS} FROM run_traces WHERE ${filter} ORDER BY started_at DESC, id COLLATE "C" DESC`, flowId === undefined ? [userId] : [userId, flowId]);
      return rows.map(entryOf);
    },
    deleteTrace: async (trace) => {
      await pool.query('DELETE FROM run_traces WHERE id = $1', [trace.id]);
    },
    deleteForFlow: async (userId, flowId) => (await pool.query('DELETE FROM run_traces WHERE user_id = $1 AND flow_id = $2', [userId, flowId])).rowCount ?? 0,
    expire: async (now) => (await pool.query('DELETE FROM run_traces WHERE expires_at <= $1', [now])).rowCount ?? 0,
  };
}
