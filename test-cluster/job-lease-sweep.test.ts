/**
 * The lease side of a job's end in PostgreSQL, on the store itself (each test its own schema): an owner's fenced
 * finish ends its lease and writes the record in one statement, or does neither; and the sweep answers the jobs a
 * dead instance stranded (lease ended or missing, record unfinished) once they stayed so past the grace, and never a
 * live one: queued, claimed, running, or just written and about to get its lease.
 */
import t, { type Test } from 'tap';
import type { JobEvent, JobRecord } from '../protocol/job.schema.js';
import { openPgStore } from '../src/store/pg/pg-store.js';
import type { FinishedJob, Store } from '../src/store/port.js';
import { job } from '../test/support/store-contract/records.js';
import { admin, freshSchema, TEST_DATABASE_URL } from './support/postgres.js';

const LONG_MS = 600_000;
const GRACE_MS = 30_000;
const LOG: JobEvent[] = [{ seq: 1, event: 'job_status', data: { status: 'completed' } }];

const finished = (record: JobRecord, status: JobRecord['status'] = 'completed'): FinishedJob => {
  const done = { ...record, status, event_count: 1 };
  return { record: done, recordJson: JSON.stringify(done), logJson: JSON.stringify(LOG), expiresAt: Date.now() + LONG_MS };
};

async function storeIn(t: Test): Promise<{ store: Store; schema: string }> {
  const schema = freshSchema(t);
  const store = await openPgStore({ url: TEST_DATABASE_URL, schema });
  t.teardown(() => store.close());
  return { store, schema };
}

/** A job's lease row as stored (undefined: none). */
async function leaseOf(schema: string, id: string) {
  const [row] = await admin<{ state: string; owner: string | null; epoch: number }>(`SELECT state, owner, epoch FROM ${schema}.job_leases WHERE id = $1`, [id]);
  return row;
}

/** Moves a job's lease end, or its record's last write, `ms` into the past (as if that long had gone by). */
const ageLease = (schema: string, id: string, ms: number) => admin(`UPDATE ${schema}.job_leases SET lease_until = lease_until - $2 WHERE id = $1`, [id, ms]);
const ageRecord = (schema: string, id: string, ms: number) => admin(`UPDATE ${schema}.jobs SET written_ms = written_ms - $2 WHERE id = $1`, [id, ms]);

t.test('an owner ends its lease and writes the final record in one statement, or does neither', async (t) => {
  const { store, schema } = await storeIn(t);
  const leases = store.leases!;
  const running = job({ status: 'in_progress' });
  await store.jobs.put(running);
  await leases.own(running.id, 'owner-a', LONG_MS);

  t.equal(await store.jobs.putFinished(finished(running), { id: running.id, epoch: 1, owner: 'owner-b' }), false, 'another owner is refused');
  t.equal(await store.jobs.putFinished(finished(running), { id: running.id, epoch: 2, owner: 'owner-a' }), false, 'so is another epoch');
  t.equal((await store.jobs.get(running.id))!.status, 'in_progress', 'a refused finish wrote no record');
  t.equal(await store.jobs.events(running.id), undefined, 'and no log');
  t.equal((await leaseOf(schema, running.id)).state, 'running', 'and ended no lease');

  t.equal(await store.jobs.putFinished(finished(running), { id: running.id, epoch: 1, owner: 'owner-a' }), true, 'the owner finishes');
  t.equal((await store.jobs.get(running.id))!.status, 'completed', 'the record is terminal');
  t.same(await store.jobs.events(running.id), LOG, 'with its log');
  t.equal((await leaseOf(schema, running.id)).state, 'ended', 'and the lease ended with it');
  t.same(await store.jobs.unfinished(), [], 'nothing is left unfinished');

  t.equal(await store.jobs.putFinished(finished(running, 'failed'), { id: running.id, epoch: 1, owner: 'owner-a' }), false, 'a second fenced finish is refused');
  t.equal(await store.jobs.putFinished(finished(running, 'failed')), false, 'so is an unfenced one: a finished record is final');
  t.equal((await store.jobs.get(running.id))!.status, 'completed', 'the first end stands');
});

t.test('the sweep finishes jobs stranded with their lease ended or missing, after the grace, and no live job', async (t) => {
  const { store, schema } = await storeIn(t);
  const leases = store.leases!;
  const queuedAtFirst = new Set(['leaselessJustNow', 'queued', 'claimed', 'stoppedQueued']);
  const names = ['endedLongAgo', 'endedJustNow', 'leaselessLongAgo', 'leaselessJustNow', 'finished', 'queued', 'claimed', 'running', 'expired', 'stoppedQueued'];
  const jobs = Object.fromEntries(names.map((name) => [name, job({ status: queuedAtFirst.has(name) ? 'queued' : 'in_progress' })]));
  const id = (name: string) => jobs[name].id;
  await Promise.all(Object.values(jobs).map((record) => store.jobs.put(record)));

  // The state the old order left when its owner died: lease ended, record unfinished.
  for (const name of ['endedLongAgo', 'endedJustNow']) {
    await leases.own(id(name), 'owner-a', LONG_MS);
    t.equal(await leases.end({ id: id(name), epoch: 1 }, 'owner-a'), true);
  }
  await ageLease(schema, id('endedLongAgo'), 2 * GRACE_MS);
  await ageRecord(schema, id('leaselessLongAgo'), 2 * GRACE_MS);
  // Live jobs, each with a record old enough that only its lease keeps it from the sweep.
  await leases.own(id('finished'), 'owner-a', LONG_MS);
  t.equal(await store.jobs.putFinished(finished(jobs.finished), { id: id('finished'), epoch: 1, owner: 'owner-a' }), true);
  await ageLease(schema, id('finished'), 2 * GRACE_MS);
  await leases.enqueue(id('claimed'));
  t.same(await leases.claim('owner-b', 10, LONG_MS), [{ id: id('claimed'), epoch: 1 }], 'a queued job claimed');
  await leases.enqueue(id('queued'));
  await leases.enqueue(id('stoppedQueued'));
  await leases.own(id('running'), 'owner-a', LONG_MS);
  await leases.own(id('expired'), 'owner-a', LONG_MS);
  await ageLease(schema, id('expired'), 2 * LONG_MS);
  // A queued job stopped just now: its stopper writes it cancelled within the grace.
  t.equal(await leases.requestStop(id('stoppedQueued')), 'was-queued');
  for (const record of Object.values(jobs)) await ageRecord(schema, record.id, 2 * GRACE_MS);
  await admin(`UPDATE ${schema}.jobs SET written_ms = written_ms + $2 WHERE id = $1`, [id('leaselessJustNow'), 2 * GRACE_MS]);

  const swept = await leases.sweep(GRACE_MS);
  t.same(swept.sort(), [id('endedLongAgo'), id('expired'), id('leaselessLongAgo')].sort(), 'lease ended past the grace, lease missing past the grace, lease expired');
  t.same(await leaseOf(schema, id('expired')), { state: 'ended', owner: 'owner-a', epoch: 2 }, 'the expired lease ended at a new epoch');
  t.same(await leaseOf(schema, id('leaselessLongAgo')), { state: 'ended', owner: null, epoch: 1 }, 'the missing lease is written ended');
  t.equal(await leaseOf(schema, id('leaselessJustNow')), undefined, 'a job just written keeps its chance to get its lease');
  t.same(await leases.sweep(GRACE_MS), [], 'a second sweep at once answers nothing: the first sweeper is recording them');

  // The job swept for its missing lease cannot be taken by a lease written late.
  await leases.own(id('leaselessLongAgo'), 'owner-late', LONG_MS);
  await leases.enqueue(id('leaselessLongAgo'));
  const claimable = (await leases.claim('owner-c', 10, LONG_MS)).map((lease) => lease.id);
  t.same(claimable, [id('queued')], 'a late queue entry is not claimable (the queued job is)');
  const late = await store.jobs.putFinished(finished(jobs.leaselessLongAgo), { id: id('leaselessLongAgo'), epoch: 1, owner: 'owner-late' });
  t.equal(late, false, "a late owner's finish is refused");

  // The sweeper records one of them, then dies: the others come back once the grace has passed again.
  t.equal(await store.jobs.putFinished(finished(jobs.expired, 'failed')), true, 'the sweeper records one job interrupted');
  for (const name of ['endedLongAgo', 'leaselessLongAgo', 'expired']) await ageLease(schema, id(name), 2 * GRACE_MS);
  t.same((await leases.sweep(GRACE_MS)).sort(), [id('endedLongAgo'), id('leaselessLongAgo')].sort(), 'what a dead sweeper left unrecorded is swept again');
});

t.test('one sweeper at a time: a sweep while another holds the lock answers nothing', async (t) => {
  const { store, schema } = await storeIn(t);
  const stranded = job({ status: 'in_progress' });
  await store.jobs.put(stranded);
  await ageRecord(schema, stranded.id, 2 * GRACE_MS);
  const { Client } = (await import('pg')).default;
  const other = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
  await other.connect();
  t.teardown(() => other.end());
  await other.query('BEGIN');
  await other.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [0x73776570]);
  t.same(await store.leases!.sweep(GRACE_MS), [], 'the lock is held elsewhere');
  await other.query('COMMIT');
  t.same(await store.leases!.sweep(GRACE_MS), [stranded.id], 'once it is free, the job is swept');
});
