/**
 * v2 jobs where several instances share them (src/cluster): the jobs service's side of the shared queue. A
 * background job is queued for every instance; the instance that claims it builds its run from the record and runs
 * it; one that did not start it follows its log on the bus and stops it with a flag and a hint; and a job whose
 * owner died is ended interrupted by the instance that swept its lease, its log continued from what the owner wrote.
 */
import type { JobRecord } from '../../../protocol/job.schema.js';
import { TERMINAL_STATUSES } from '../../../protocol/workflow.schema.js';
import type { LeasedJobs, LeasedJobsHandlers } from '../../cluster/leased-jobs.js';
import type { Logger } from '../../logger.js';
import type { RunStart } from '../../runs/run-adapter.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import { RunLog, type LogEntry, type LogWatcher } from '../../runs/run-log.js';
import type { Store } from '../../store/port.js';
import type { Lease } from '../../store/job-leases.port.js';
import type { EventBus } from '../../cluster/event-bus.port.js';
import type { JobSharing, WorkflowJobs } from './workflow-jobs.js';
import type { FinishedJob } from './workflow-job.js';

/** The shared event logs as the jobs need them (src/cluster/jetstream-run-logs.ts). */
export interface SharedLogs {
  watch(runId: string, after: number, watcher: LogWatcher): () => void;
  readAll(runId: string): Promise<{ entries: LogEntry[]; ended: boolean }>;
  appendFenced(runId: string, entries: LogEntry[], end: boolean): Promise<'appended' | 'ended-already' | 'conflict'>;
}

export interface SharedJobsDeps {
  jobs: WorkflowJobs;
  runs: Runs;
  store: Store;
  leased: LeasedJobs;
  logs: SharedLogs;
  bus: EventBus;
  logger: Logger;
  /** How often a stop asked here looks for the job's final record, and for how long. */
  stopPollMs: number;
  stopWaitMs: number;
}

export class SharedJobs implements JobSharing, LeasedJobsHandlers {
  constructor(private readonly deps: SharedJobsDeps) {}

  /** A background job, its queued record committed: started here if this instance has a slot, else queued for all. */
  enqueue(start: RunStart<FinishedJob>): Promise<void> {
    return this.deps.leased.enqueue(start.id, async () => {
      await this.deps.runs.startClaimed(start).answer.catch(() => undefined);
    });
  }

  own(jobId: string): void {
    this.deps.leased.own(jobId);
  }

  watch(jobId: string, after: number, watcher: LogWatcher): () => void {
    return this.deps.logs.watch(jobId, after, watcher);
  }

  /** A stop asked of a job another instance holds: a queued one ends here, a running one is told to stop. */
  async stop(record: JobRecord): Promise<string> {
    const { leases } = this.deps.store;
    const outcome = await leases!.requestStop(record.id);
    if (outcome === 'was-queued') {
      const { run } = await this.deps.jobs.unfinished(record);
      const final = (await this.deps.runs.end<FinishedJob>(run, 'queued', { kind: 'cancelled', reason: 'stop' }).answer).record;
      return stopMessage(final);
    }
    if (outcome === 'flagged') this.deps.bus.publish('cancel', record.id);
    return stopMessage(await this.finalRecord(record));
  }

  async runClaimed(lease: Lease): Promise<void> {
    const record = await this.deps.store.jobs.get(lease.id);
    // Its record is written before its lease: a lease without one is a job refused after all.
    if (!record || TERMINAL_STATUSES.has(record.status)) return this.deps.leased.release(lease.id);
    const unfinished = await this.deps.jobs.unfinished({ ...record, status: 'queued' });
    const { runs } = this.deps;
    const run = unfinished.job
      ? runs.startClaimed({ ...unfinished.run, job: unfinished.job })
      : runs.end(unfinished.run, 'queued', { kind: 'interrupted' });
    await run.answer.catch(() => undefined);
  }

  /** Ends, interrupted, a job whose owner stopped renewing its lease; its log goes on from the owner's entries. */
  async takeOver(id: string): Promise<void> {
    const record = await this.deps.store.jobs.get(id);
    if (!record || TERMINAL_STATUSES.has(record.status)) return;
    const { logs, runs, logger } = this.deps;
    const prior = await logs.readAll(id);
    const { run } = await this.deps.jobs.unfinished({ ...record, status: 'in_progress' });
    const log = RunLog.after(prior.entries, 'replay', run.adapter.log?.entry);
    await runs.end(run, 'in_progress', { kind: 'interrupted' }, log).answer.catch(() => undefined);
    if (prior.ended) return;
    const added = log.events.slice(prior.entries.length);
    for (let attempt = 0; attempt < 3; attempt++) {
      const outcome = await logs.appendFenced(id, added, true);
      if (outcome !== 'conflict') return;
    }
    logger.warn({ jobId: id }, 'the end of a job taken over could not be added to its shared log');
  }

  stopHere(id: string): void {
    this.deps.runs.find(id)?.cancel('stop');
  }

  abandon(id: string): void {
    this.deps.runs.abandon(id);
  }

  /** The job's final record, once its owner (or the instance that took it over) has written it. */
  private async finalRecord(record: JobRecord): Promise<JobRecord> {
    const { stopPollMs, stopWaitMs } = this.deps;
    const until = Date.now() + stopWaitMs;
    let current = record;
    while (!TERMINAL_STATUSES.has(current.status) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, stopPollMs));
      current = (await this.deps.store.jobs.get(record.id)) ?? current;
    }
    return current;
  }
}

const stopMessage = (final: JobRecord) =>
  final.status === 'cancelled' ? `Job ${final.id} cancelled successfully.` : `Job ${final.id} already finished (${final.status}).`;
