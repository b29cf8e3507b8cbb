/** Responses in PostgreSQL by id, with whether each is still in progress; puts of one turn are one statement. */
import type { Pool } from 'pg';
import type { StoredResponse } from '../../../protocol/responses.schema.js';
import type { ResponseRepo } from '../port.js';
import { docs, doc, json } from './sql.js';
import { byId, lastPerId, TickBatch } from './tick-batch.js';

const UPSERT = `INSERT INTO responses (id, in_progress, doc) SELECT * FROM unnest($1::text[], $2::boolean[], $3::json[])
  ON CONFLICT (id) DO UPDATE SET in_progress = excluded.in_progress, doc = excluded.doc`;

export function pgResponses(pool: Pool): ResponseRepo & { drain(): Promise<void> } {
  const puts = new TickBatch<StoredResponse>(async (batch) => {
    const records = lastPerId(batch);
    await pool.query(UPSERT, [records.map((r) => r.id), records.map((r) => r.response.status === 'in_progress'), records.map(json)]);
  }, byId);
  return {
    get: (id) => doc(pool, 'SELECT doc FROM responses WHERE id = $1', [id]),
    put: (record) => puts.add(record),
    unfinished: () => docs(pool, 'SELECT doc FROM responses WHERE in_progress ORDER BY id COLLATE "C"', []),
    drain: () => puts.drain(),
  };
}
