/**
 * v2 jobs in PostgreSQL: `jobs` (the record as JSON text, and whether it is unfinished) and `job_events` (a finished
 * job's log, with when retention may drop it). Puts and finishes of one turn are one statement each, never a
 * transaction per job: thousands of jobs finish per second. A finished record is final: a put cannot reopen it (an
 * owner that was paused past its lease, writing late, while another instance ended the job).
 */
import type { Pool } from 'pg';
import type { JobEvent, JobRecord } from '../../../protocol/job.schema.js';
import { TERMINAL_STATUSES } from '../../../protocol/workflow.schema.js';
import type { FinishedJob, JobRepo } from '../port.js';
import { byId, lastPerId, TickBatch } from './tick-batch.js';

const UPSERT_JOBS = `INSERT INTO jobs (id, unfinished, doc) SELECT * FROM unnest($1::text[], $2::boolean[], $3::text[])
  ON CONFLICT (id) DO UPDATE SET unfinished = excluded.unfinished, doc = excluded.doc WHERE jobs.unfinished`;

const FINISH_JOBS = `WITH records AS (
    INSERT INTO jobs (id, unfinished, doc) SELECT id, false, doc FROM unnest($1::text[], $2::text[]) AS f (id, doc)
    ON CONFLICT (id) DO UPDATE SET unfinished = false, doc = excluded.doc
  )
  INSERT INTO job_events (id, log, expires_at) SELECT * FROM unnest($1::text[], $3::text[], $4::bigint[])
  ON CONFLICT (id) DO UPDATE SET log = excluded.log, expires_at = excluded.expires_at`;

export function pgJobs(pool: Pool): JobRepo & { drain(): Promise<void> } {
  const puts = new TickBatch<JobRecord>(async (batch) => {
    const jobs = lastPerId(batch);
    await pool.query(UPSERT_JOBS, [jobs.map((j) => j.id), jobs.map((j) => !TERMINAL_STATUSES.has(j.status)), jobs.map((j) => JSON.stringify(j))]);
  }, byId);
  const finishes = new TickBatch<FinishedJob & { id: string }>(async (batch) => {
    const done = lastPerId(batch);
    await pool.query(FINISH_JOBS, [done.map((j) => j.id), done.map((j) => j.recordJson), done.map((j) => j.logJson), done.map((j) => j.expiresAt)]);
  });
  const parse = (rows: { doc: string }[]) => rows.map((row) => JSON.parse(row.doc) as JobRecord);

  return {
    get: async (id) => parse((await pool.query<{ doc: string }>('SELECT doc FROM jobs WHERE id = $1', [id])).rows)[0],
    put: (job) => puts.add(job),
    unfinished: async () => parse((await pool.query<{ doc: string }>('SELECT doc FROM jobs WHERE unfinished ORDER BY id COLLATE "C"')).rows),
    events: async (id) => {
      const { rows } = await pool.query<{ log: string }>('SELECT log FROM job_events WHERE id = $1', [id]);
      return rows[0] && (JSON.parse(rows[0].log) as JobEvent[]);
    },
    putFinished: (job) => finishes.add({ ...job, id: job.record.id }),
    expireEvents: async (now) => (await pool.query('DELETE FROM job_events WHERE expires_at <= $1', [now])).rowCount ?? 0,
    drain: async () => {
      await Promise.all([puts.drain(), finishes.drain()]);
    },
  };
}
