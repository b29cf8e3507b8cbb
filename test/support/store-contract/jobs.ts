/** The contract for v2 jobs (the unfinished index, finished logs and their retention) and stored responses. */
import type { Test } from 'tap';
import type { JobEvent, JobRecord } from '../../../protocol/job.schema.js';
import type { FinishedJob } from '../../../src/store/port.js';
import { freshStore, type OpenStore } from './opened.js';
import { byId, job, response } from './records.js';

const finished = (record: JobRecord, events: JobEvent[], expiresAt: number): FinishedJob => ({
  record,
  recordJson: JSON.stringify(record),
  logJson: JSON.stringify(events),
  expiresAt,
});

export function jobsContract(t: Test, open: OpenStore): void {
  t.test('jobs: put keeps the unfinished index in step with the status', async (t) => {
    const { store } = await freshStore(t, open);
    const [queued, running, done] = [job({ status: 'queued' }), job({ status: 'in_progress' }), job({ status: 'completed' })];
    await Promise.all([queued, running, done].map((j) => store.jobs.put(j)));
    t.same(await store.jobs.get(running.id), running, 'get');
    t.equal(await store.jobs.get('no-such-job'), undefined, 'an unknown id');
    t.same(byId(await store.jobs.unfinished()), byId([queued, running]), 'queued and running jobs are unfinished');
    const failed = { ...running, status: 'failed' as const, errors: [{ error: 'boom', code: 'X' }] };
    await store.jobs.put(failed);
    t.same(await store.jobs.get(running.id), failed, 'a rewrite replaces the record');
    t.same(byId(await store.jobs.unfinished()), byId([queued]), 'a terminal status leaves the index');
  });

  t.test('jobs: putFinished stores the record and its log; expireEvents drops due logs only', async (t) => {
    const { store } = await freshStore(t, open);
    const [early, late] = [job({ status: 'in_progress' }), job({ status: 'in_progress' })];
    await Promise.all([store.jobs.put(early), store.jobs.put(late)]);
    const log: JobEvent[] = [{ seq: 1, event: 'job_status', data: { status: 'in_progress' } }, { seq: 2, event: 'end', data: null }];
    const earlyDone = { ...early, status: 'completed' as const, event_count: 2 };
    const lateDone = { ...late, status: 'cancelled' as const, event_count: 1 };
    await Promise.all([store.jobs.putFinished(finished(earlyDone, log, 1_000)), store.jobs.putFinished(finished(lateDone, log.slice(0, 1), 5_000))]);
    t.same(await store.jobs.get(early.id), earlyDone, 'the terminal record');
    t.same(await store.jobs.unfinished(), [], 'finished jobs leave the unfinished index');
    t.same(await store.jobs.events(early.id), log, 'the log, as given');
    t.equal(await store.jobs.events('no-such-job'), undefined, 'no log for an unknown job');
    t.equal(await store.jobs.expireEvents(2_000), 1, 'one log was due');
    t.equal(await store.jobs.events(early.id), undefined, 'the due log is gone');
    t.same(await store.jobs.events(late.id), log.slice(0, 1), 'the other stays');
    t.same(await store.jobs.get(early.id), earlyDone, 'the record outlives its log');
    t.equal(await store.jobs.expireEvents(2_000), 0, 'nothing more is due');
    t.equal(await store.jobs.expireEvents(6_000), 1, 'until its time comes');
  });

  t.test('responses: put keeps the in-progress index in step with the status', async (t) => {
    const { store } = await freshStore(t, open);
    const [running, settled] = [response('in_progress'), response('failed')];
    await Promise.all([store.responses.put(running), store.responses.put(settled)]);
    t.same(await store.responses.get(running.id), running, 'get');
    t.equal(await store.responses.get('resp_unknown'), undefined, 'an unknown id');
    t.same(await store.responses.unfinished(), [running], 'in-progress responses are unfinished');
    const done = { ...running, response: { ...running.response, status: 'completed' as const } };
    await store.responses.put(done);
    t.same(await store.responses.get(running.id), done, 'a rewrite replaces it');
    t.same(await store.responses.unfinished(), [], 'and leaves the index');
  });
}
