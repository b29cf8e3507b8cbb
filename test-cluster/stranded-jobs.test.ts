/**
 * kill -9 at the two moments that used to strand a job `in_progress` forever (its lease ended, its record never
 * written), placed exactly with a fault point (`FLOWSVC_TEST_KILL_AT`, src/cluster/fault-point.ts) rather than by
 * luck. An owner killed as it records a job's end leaves the lease running (the end and the record are one
 * transaction), so another instance ends the job when the lease expires. A sweeper killed after ending a dead owner's
 * lease, before recording the job, leaves the stranded state itself: the restarted instance's sweep ends the job.
 * An instance killed between a background job's record and its queue entry leaves a job with no lease at all:
 * another instance's sweep ends it. Every end is read through the HTTP API with plain fetch.
 */
import t, { type Test } from 'tap';
import { startModelServer } from '../test/support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from '../test/support/model-flows.js';
import { readSse } from '../test/support/workflows.js';
import { submitBackground, TERMINAL, untilTerminal } from './support/background-jobs.js';
import { startCluster } from './support/cluster.js';
import { expectJson, type Instance } from './support/instances.js';
import { admin } from './support/postgres.js';

const LEASE = { FLOWSVC_JOB_LEASE_SECONDS: '1', FLOWSVC_JOB_CONCURRENCY: '2' };

/** The job's lease row and whether its record is unfinished, as the database holds them. */
async function stored(databaseUrl: string, jobId: string) {
  const [lease] = await admin<{ state: string; owner: string }>('SELECT state, owner FROM job_leases WHERE id = $1', [jobId], databaseUrl);
  const [record] = await admin<{ unfinished: boolean }>('SELECT unfinished FROM jobs WHERE id = $1', [jobId], databaseUrl);
  return { lease, unfinished: record?.unfinished };
}

/** The job ended once, interrupted, and its log as `instance` replays it has every event once, its end last. */
async function assertInterruptedOnce(t: Test, instance: Instance, jobId: string): Promise<void> {
  const [final] = (await untilTerminal(instance, [jobId])).values();
  t.equal(final.status, 'failed', 'the job ended');
  t.match(JSON.stringify(final), /JOB_INTERRUPTED/, 'interrupted');
  const log = await readSse(await instance.call(`/api/v2/workflows?job_id=${jobId}&stream=true`));
  t.equal(log.filter((event) => event.event === 'job_status' && TERMINAL.has(event.data.status)).length, 1, 'one terminal status in its log');
  t.same(log.map((event) => event.id), log.map((_, i) => i + 1), 'its log has no gap and no duplicate');
  t.equal(log.at(-1)!.data.status, 'failed', 'the terminal status is its last event');
}

t.test('an owner killed as it records a job end: the lease is still running, and another instance ends the job', async (t) => {
  const model = await startModelServer();
  t.teardown(() => model.close());
  const cluster = await startCluster(t, 1, { OPENAI_BASE_URL: model.baseURL, ...LEASE });
  const [survivor] = cluster.instances;
  const owner = await cluster.another({ FLOWSVC_TEST_KILL_AT: 'final-record' });
  const flow = await expectJson(await survivor.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);
  model.script({ tokens: ['a', ' finished', ' answer'] });

  // The instance that takes a background job with a free slot runs it: this one dies once the run has ended.
  const jobId = await submitBackground(owner, flow.id, 'hi');
  t.equal(await owner.exited(), 'SIGKILL', 'the owner was killed at its final record');
  t.equal(model.chats.length, 1, 'the run had reached the model');
  const left = await stored(cluster.databaseUrl, jobId);
  t.equal(left.lease.state, 'running', 'its lease did not end without the record');
  t.match(left.lease.owner, `:${owner.child.pid}:`, "and is the dead owner's");
  t.equal(left.unfinished, true, 'the record is unfinished');

  await assertInterruptedOnce(t, survivor, jobId);
  t.equal(model.chats.length, 1, 'the job did not run again');
  t.same(await stored(cluster.databaseUrl, jobId), { lease: { state: 'ended', owner: left.lease.owner }, unfinished: false }, 'lease and record ended');
});

t.test('a sweeper killed between ending a dead owner lease and recording the job: the restarted instance ends it', async (t) => {
  const model = await startModelServer();
  t.teardown(() => model.close());
  const cluster = await startCluster(t, 1, { OPENAI_BASE_URL: model.baseURL, ...LEASE });
  const [owner] = cluster.instances;
  const sweeper = await cluster.another({ FLOWSVC_TEST_KILL_AT: 'after-sweep' });
  const flow = await expectJson(await owner.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Slow model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);
  model.script({ tokens: Array.from({ length: 200 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
  const jobId = await submitBackground(owner, flow.id, 'hi');
  await model.nextChat();

  await owner.kill();
  t.equal(await sweeper.exited(), 'SIGKILL', 'the sweeper ended the expired lease, then was killed');
  const left = await stored(cluster.databaseUrl, jobId);
  t.equal(left.lease.state, 'ended', 'the stranded state the issue saw: the lease ended...');
  t.equal(left.unfinished, true, '...and the record unfinished');

  const restarted = await cluster.another();
  await assertInterruptedOnce(t, restarted, jobId);
  t.equal((await stored(cluster.databaseUrl, jobId)).unfinished, false, 'the record is finished');
  t.equal(model.chats.length, 1, 'the job did not run again');
});

t.test('an instance killed between a job record and its queue entry: another instance ends the job with no lease', async (t) => {
  const model = await startModelServer();
  t.teardown(() => model.close());
  const cluster = await startCluster(t, 1, { OPENAI_BASE_URL: model.baseURL, ...LEASE });
  const [survivor] = cluster.instances;
  const doomed = await cluster.another({ FLOWSVC_TEST_KILL_AT: 'queue-entry' });
  const flow = await expectJson(await survivor.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);

  await t.rejects(submitBackground(doomed, flow.id, 'hi'), 'the caller hears no answer: the job was never acknowledged');
  t.equal(await doomed.exited(), 'SIGKILL', 'the instance was killed before the queue entry');
  const [record] = await admin<{ id: string; unfinished: boolean }>('SELECT id, unfinished FROM jobs', [], cluster.databaseUrl);
  t.equal(record.unfinished, true, 'its record is unfinished...');
  t.equal((await stored(cluster.databaseUrl, record.id)).lease, undefined, '...with no lease row');

  await assertInterruptedOnce(t, survivor, record.id);
  t.same(await stored(cluster.databaseUrl, record.id), { lease: { state: 'ended', owner: null }, unfinished: false }, 'the sweep wrote its lease ended');
  t.equal(model.chats.length, 0, 'the job never ran');
});
