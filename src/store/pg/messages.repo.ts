/**
 * Messages in PostgreSQL. An append is one transaction that locks the session's row (`message_sessions`) and takes
 * the session's next sequence number: the caller's `seq` when it is above the last one taken, else the one after.
 * So a history stays unique and in commit order when several instances append to one session at once, and a single
 * writer's numbers (monotonic) are kept as given. An edit (a put of a stored id, same flow and session) keeps its
 * place. Puts of one turn go together, sorted by session and `seq`: one round trip and one commit per batch, and
 * concurrent batches lock sessions in the same order (no deadlock). Every change to a session (append, edit, delete)
 * is counted on its row, for the caches of the instances that share the database (`changes`).
 */
import type { Pool } from 'pg';
import type { MessageRecord } from '../../../protocol/message.schema.js';
import type { MessageRepo } from '../port.js';
import { json, owner } from './sql.js';
import { TickBatch } from './tick-batch.js';

interface MessageRow {
  seq: string;
  doc: MessageRecord;
}

/** The stored record, with the sequence number the store took (the caller's unless another instance had it). */
const record = ({ seq, doc }: MessageRow): MessageRecord => {
  doc.seq = Number(seq);
  return doc;
};
const records = (rows: MessageRow[]) => rows.map(record);

const inSessionOrder = (a: MessageRecord, b: MessageRecord) => {
  const [fa, fb] = [owner(a.flow_id), owner(b.flow_id)];
  if (fa !== fb) return fa < fb ? -1 : 1;
  if (a.session_id !== b.session_id) return a.session_id < b.session_id ? -1 : 1;
  return a.seq - b.seq;
};

export function pgMessages(pool: Pool): MessageRepo & { drain(): Promise<void> } {
  const appends = new TickBatch<MessageRecord>(
    async (batch) => {
      const sorted = [...batch].sort(inSessionOrder);
      await pool.query('SELECT append_messages($1, $2, $3, $4, $5::json[])', [
        sorted.map((m) => m.id),
        sorted.map((m) => owner(m.flow_id)),
        sorted.map((m) => m.session_id),
        sorted.map((m) => m.seq),
        sorted.map(json),
      ]);
    },
    // A session's appends go in order: a batch committed ahead of the one before it could number an answer before
    // its question.
    (m) => `${owner(m.flow_id)}\u0000${m.session_id}`,
  );

  return {
    put: (message) => appends.add(message),
    get: async (id) => {
      const { rows } = await pool.query<MessageRow>('SELECT seq, doc FROM messages WHERE id = $1', [id]);
      return rows[0] && record(rows[0]);
    },
    session: async (flowId, sessionId, { limit, newestFirst }) => {
      const order = newestFirst ? 'DESC' : 'ASC';
      const { rows } = await pool.query<MessageRow>(`SELECT seq, doc FROM messages WHERE flow_key = $1 AND session_id = $2 ORDER BY seq ${order} LIMIT $3`, [
        owner(flowId),
        sessionId,
        limit ?? null,
      ]);
      return records(rows);
    },
    scan: async (flowId) => {
      const where = flowId === undefined ? '' : 'WHERE flow_key = $1';
      const { rows } = await pool.query<MessageRow>(
        `SELECT seq, doc FROM messages ${where} ORDER BY flow_key COLLATE "C", session_id COLLATE "C", seq`,
        flowId === undefined ? [] : [owner(flowId)],
      );
      return records(rows);
    },
    changes: async (flowId, sessionId) => {
      const { rows } = await pool.query<{ changes: string }>('SELECT changes FROM message_sessions WHERE flow_key = $1 AND session_id = $2', [
        owner(flowId),
        sessionId,
      ]);
      return Number(rows[0]?.changes ?? 0);
    },
    delete: async (message) => {
      await pool.query(
        `WITH gone AS (DELETE FROM messages WHERE id = $1 RETURNING flow_key, session_id)
         UPDATE message_sessions s SET changes = s.changes + 1 FROM gone WHERE s.flow_key = gone.flow_key AND s.session_id = gone.session_id`,
        [message.id],
      );
    },
    drain: () => appends.drain(),
  };
}
