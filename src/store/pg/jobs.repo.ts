/**
 * v2 jobs in PostgreSQL: `jobs` (the record as JSON text, whether it is unfinished, and when it was last written by
 * the database's clock) and `job_events` (a finished job's log, with when retention may drop it). Puts and finishes
 * of one turn are one statement each, never a transaction per job: thousands of jobs finish per second. A finished
 * record is final: neither a put nor another finish changes it (an owner that was paused past its lease, writing
 * late, while another instance ended the job). An owner's finish also ends its lease in the same statement
 * (`LeaseFence`): a process killed at any moment leaves either both written or neither.
 */
import type { Pool } from 'pg';
import type { JobEvent, JobRecord } from '../../../protocol/job.schema.js';
import { TERMINAL_STATUSES } from '../../../protocol/workflow.schema.js';
import type { LeaseFence } from '../job-leases.port.js';
import type { FinishedJob, JobRepo } from '../port.js';
import { DB_NOW_MS } from './sql.js';
import { byId, lastPerId, TickBatch } from './tick-batch.js';

const UPSERT_JOBS = `INSERT INTO jobs (id, unfinished, doc, written_ms) SELECT *, ${DB_NOW_MS} FROM unnest($1::text[], $2::boolean[], $3::text[])
  ON CONFLICT (id) DO UPDATE SET unfinished = excluded.unfinished, doc = excluded.doc, written_ms = excluded.written_ms WHERE jobs.unfinished`;

/** The record and log of the finishes in `source` (a CTE of the ids that may finish); answers the ids written. */
const finishFrom = (source: string) => `records AS (
    INSERT INTO jobs (id, unfinished, doc, written_ms)
    SELECT f.id, false, f.doc, ${DB_NOW_MS} FROM unnest($1::text[], $2::text[]) AS f (id, doc) JOIN ${source} USING (id)
    ON CONFLICT (id) DO UPDATE SET unfinished = false, doc = excluded.doc, written_ms = excluded.written_ms WHERE jobs.unfinished
    RETURNING id
  ), logs AS (
    INSERT INTO job_events (id, log, expires_at)
    SELECT f.id, f.log, f.expires_at FROM unnest($1::text[], $3::text[], $4::bigint[]) AS f (id, log, expires_at) JOIN records USING (id)
    ON CONFLICT (id) DO UPDATE SET log = excluded.log, expires_at = excluded.expires_at
  )
  SELECT id FROM records`;

/** Finishes without a lease (a job taken over, stopped while queued, or where jobs are not leased). */
const FINISH_JOBS = `WITH given AS (SELECT unnest($1::text[]) AS id), ${finishFrom('given')}`;

/**
 * An owner's finishes: each ends its lease by compare-and-set on (owner, epoch) and writes its record and log, in
 * one statement, so that no lease is ever ended with its job left unfinished. A lease no longer the owner's ends
 * nothing and writes nothing.
 */
const FINISH_FENCED = `WITH fenced AS (
    UPDATE job_leases AS l SET state = 'ended', lease_until = ${DB_NOW_MS}
    FROM unnest($1::text[], $5::int[], $6::text[]) AS e (id, epoch, owner)
    WHERE l.id = e.id AND l.epoch = e.epoch AND l.owner = e.owner AND l.state = 'running'
    RETURNING l.id
  ), ${finishFrom('fenced')}`;

type Finish = FinishedJob & { id: string; fence?: LeaseFence };

export function pgJobs(pool: Pool): JobRepo & { drain(): Promise<void> } {
  const puts = new TickBatch<JobRecord>(async (batch) => {
    const jobs = lastPerId(batch);
    await pool.query(UPSERT_JOBS, [jobs.map((j) => j.id), jobs.map((j) => !TERMINAL_STATUSES.has(j.status)), jobs.map((j) => JSON.stringify(j))]);
  }, byId);
  // Which finishes of the last batches were written; each caller takes its own answer once its batch is done.
  const written = new Set<string>();
  const finishBatch = (sql: string, fenced: boolean) =>
    new TickBatch<Finish>(async (batch) => {
      const done = lastPerId(batch);
      const params: unknown[] = [done.map((j) => j.id), done.map((j) => j.recordJson), done.map((j) => j.logJson), done.map((j) => j.expiresAt)];
      if (fenced) params.push(done.map((j) => j.fence!.epoch), done.map((j) => j.fence!.owner));
      const { rows } = await pool.query<{ id: string }>(sql, params);
      for (const row of rows) written.add(row.id);
    });
  const finishes = finishBatch(FINISH_JOBS, false);
  const fencedFinishes = finishBatch(FINISH_FENCED, true);
  const parse = (rows: { doc: string }[]) => rows.map((row) => JSON.parse(row.doc) as JobRecord);

  return {
    get: async (id) => parse((await pool.query<{ doc: string }>('SELECT doc FROM jobs WHERE id = $1', [id])).rows)[0],
    put: (job) => puts.add(job),
    unfinished: async () => parse((await pool.query<{ doc: string }>('SELECT doc FROM jobs WHERE unfinished ORDER BY id COLLATE "C"')).rows),
    events: async (id) => {
      const { rows } = await pool.query<{ log: string }>('SELECT log FROM job_events WHERE id = $1', [id]);
      return rows[0] && (JSON.parse(rows[0].log) as JobEvent[]);
    },
    putFinished: async (job, fence) => {
      const id = job.record.id;
      await (fence ? fencedFinishes : finishes).add({ ...job, id, fence });
      return written.delete(id);
    },
    expireEvents: async (now) => (await pool.query('DELETE FROM job_events WHERE expires_at <= $1', [now])).rowCount ?? 0,
    drain: async () => {
      await Promise.all([puts.drain(), finishes.drain(), fencedFinishes.drain()]);
    },
  };
}
