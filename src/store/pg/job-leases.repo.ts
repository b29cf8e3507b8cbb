/**
 * The shared job queue in PostgreSQL (job-leases.port.ts): one `job_leases` row per v2 job. Claims take queued rows
 * with `FOR UPDATE SKIP LOCKED`, so instances claiming at once never take the same job and never wait on each other.
 * Lease times are the database's clock, so the instances' clocks need not agree; an ended row's `lease_until` is when
 * it ended. Leases of runs started at once come in bursts (thousands of runs a second): one statement per turn. An
 * owner's final transition is written with the job's record (jobs.repo.ts, `FINISH_FENCED`).
 */
import type { Pool } from 'pg';
import type { JobLeaseRepo, Lease, StopOutcome } from '../job-leases.port.js';
import { DB_NOW_MS as NOW_MS } from './sql.js';
import { TickBatch } from './tick-batch.js';

/** The sweeper's advisory lock (first key; the second is the schema's hash): one instance sweeps at a time. */
const SWEEP_CLASS = 0x73776570; // 'swep'

const CLAIM = `UPDATE job_leases SET state = 'running', owner = $1, epoch = epoch + 1, lease_until = ${NOW_MS} + $3
  WHERE id IN (SELECT id FROM job_leases WHERE state = 'queued' ORDER BY id COLLATE "C" LIMIT $2 FOR UPDATE SKIP LOCKED)
  RETURNING id, epoch`;

const OWN = `INSERT INTO job_leases (id, state, owner, epoch, lease_until)
  SELECT id, 'running', $2, 1, ${NOW_MS} + $3 FROM unnest($1::text[]) AS o (id) ON CONFLICT (id) DO NOTHING`;

const RENEW = `UPDATE job_leases SET lease_until = ${NOW_MS} + $3
  WHERE owner = $1 AND state = 'running' AND id = ANY($2::text[]) RETURNING id, stop_requested`;

const END = `UPDATE job_leases AS l SET state = 'ended', lease_until = ${NOW_MS} FROM unnest($1::text[], $2::int[]) AS e (id, epoch)
  WHERE l.id = e.id AND l.epoch = e.epoch AND l.owner = $3 AND l.state = 'running' RETURNING l.id`;

const STOP = `WITH asked AS (SELECT id, state FROM job_leases WHERE id = $1 FOR UPDATE)
  UPDATE job_leases AS l SET stop_requested = true, state = CASE WHEN asked.state = 'queued' THEN 'ended' ELSE l.state END,
    epoch = CASE WHEN asked.state = 'queued' THEN l.epoch + 1 ELSE l.epoch END,
    lease_until = CASE WHEN asked.state = 'queued' THEN ${NOW_MS} ELSE l.lease_until END
  FROM asked WHERE l.id = asked.id RETURNING asked.state AS was`;

/**
 * The sweep, under a transaction-scoped advisory lock (one sweeper at a time; the others skip): `expired` running
 * leases end (a new epoch fences their owner); `stranded` jobs are unfinished while their lease has been ended for
 * longer than the grace ($2 ms); `leaseless` ones are unfinished, written longer than the grace ago, and have no
 * lease row. Each answered job's row says it ended now, so the grace starts again: the sweeper records the job
 * interrupted meanwhile, or, if it dies first, a later sweep answers the job again.
 *
 * Why no live job is swept: a queued or running row is never stranded or leaseless, and a claim turns queued into
 * running in one statement. A job's record is written before its lease row (a background job's queue entry, a
 * streamed job's lease, both moments apart), which is what the grace covers; and should a late lease write come after
 * the sweep all the same, the row the sweep inserted wins the primary key: the late `enqueue` or `own` inserts
 * nothing, so no instance claims the job, and its owner's fenced finish (state 'running' at its epoch) is refused.
 */
const SWEEP = `WITH sweeper AS (SELECT pg_try_advisory_xact_lock($1, hashtext(current_schema())) AS alone),
  expired AS (
    UPDATE job_leases SET state = 'ended', epoch = epoch + 1, lease_until = ${NOW_MS} FROM sweeper
    WHERE sweeper.alone AND state = 'running' AND lease_until < ${NOW_MS} RETURNING id
  ), stranded AS (
    UPDATE job_leases AS l SET lease_until = ${NOW_MS} FROM sweeper, jobs AS j
    WHERE sweeper.alone AND j.unfinished AND j.id = l.id AND l.state = 'ended' AND coalesce(l.lease_until, 0) < ${NOW_MS} - $2
    RETURNING l.id
  ), leaseless AS (
    INSERT INTO job_leases (id, state, epoch, lease_until)
    SELECT j.id, 'ended', 1, ${NOW_MS} FROM jobs AS j, sweeper
    WHERE sweeper.alone AND j.unfinished AND j.written_ms < ${NOW_MS} - $2 AND NOT EXISTS (SELECT FROM job_leases AS l WHERE l.id = j.id)
    ON CONFLICT (id) DO NOTHING RETURNING id
  )
  SELECT id FROM expired UNION ALL SELECT id FROM stranded UNION ALL SELECT id FROM leaseless`;

export function pgJobLeases(pool: Pool): JobLeaseRepo & { drain(): Promise<void> } {
  const owns = new TickBatch<{ id: string; owner: string; leaseMs: number }>(async (batch) => {
    // One instance owns with one lease length: a batch shares both.
    await pool.query(OWN, [batch.map((own) => own.id), batch[0].owner, batch[0].leaseMs]);
  });
  const ended = new Set<string>();
  const ends = new TickBatch<{ lease: Lease; owner: string }>(async (batch) => {
    const { rows } = await pool.query<{ id: string }>(END, [batch.map((e) => e.lease.id), batch.map((e) => e.lease.epoch), batch[0].owner]);
    for (const row of rows) ended.add(row.id);
  });

  return {
    enqueue: async (id) => {
      await pool.query(`INSERT INTO job_leases (id, state) VALUES ($1, 'queued') ON CONFLICT (id) DO NOTHING`, [id]);
    },
    own: async (id, owner, leaseMs) => {
      await owns.add({ id, owner, leaseMs });
      return { id, epoch: 1 };
    },
    claim: async (owner, limit, leaseMs) => {
      const { rows } = await pool.query<Lease>(CLAIM, [owner, limit, leaseMs]);
      return rows;
    },
    renew: async (owner, ids, leaseMs) => {
      if (ids.length === 0) return [];
      const { rows } = await pool.query<{ id: string; stop_requested: boolean }>(RENEW, [owner, ids, leaseMs]);
      return rows.map((row) => ({ id: row.id, stop: row.stop_requested }));
    },
    end: async (lease, owner) => {
      await ends.add({ lease, owner });
      const won = ended.delete(lease.id);
      return won;
    },
    requestStop: async (id): Promise<StopOutcome> => {
      const { rows } = await pool.query<{ was: string }>(STOP, [id]);
      const was = rows[0]?.was;
      if (was === undefined) return 'unknown';
      return was === 'queued' ? 'was-queued' : was === 'running' ? 'flagged' : 'ended';
    },
    sweep: async (graceMs) => (await pool.query<{ id: string }>(SWEEP, [SWEEP_CLASS, graceMs])).rows.map((row) => row.id),
    drain: async () => {
      await Promise.all([owns.drain(), ends.drain()]);
    },
  };
}
