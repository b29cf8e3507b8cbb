/**
 * v2 workflow jobs. Every run (sync, streamed or background) is a job: a durable record in the store, an ordered
 * event log that watchers follow live, and one engine run (a job actor). Records are written as the status moves
 * (queued -> in_progress -> a terminal status); the log is written once, when the job ends. After a restart,
 * queued jobs run and jobs that were running are marked failed (`recover`, called once at start-up).
 */
import type { JobOutcome } from '../../../actors/job.actor.js';
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import type { JobEvent, JobMode, JobRecord } from '../../../protocol/job.schema.js';
import { TERMINAL_STATUSES, type ErrorDetail, type JobStatus, type WorkflowRequest, type WorkflowResponse } from '../../../protocol/workflow.schema.js';
import type { SecretBox } from '../../auth/secret-box.js';
import type { RunHandle } from '../../engine/engine.js';
import { NotFoundError, withCode } from '../../errors/index.js';
import { parseFlatInputs } from '../../langflow/flat-inputs.js';
import { workflowEvent } from '../../langflow/workflow-events.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/port.js';
import type { FlowRunner, PreparedRun } from '../flow-runner.js';
import type { FlowVersionsService } from '../flow-versions.service.js';
import type { FlowsService } from '../flows.service.js';
import { componentOutputs } from './component-outputs.js';
import { timeOrderedId } from '../../store/time-ordered-id.js';
import { JobLog, type LogWatcher } from './job-log.js';
import { JobQueue } from './job-queue.js';
import { finishedRecord, logJson, replyJson, withKeyJson } from './job-json.js';
import { outcomeErrors, runResponse, type StoredResponse } from './workflow-reply.js';

export interface JobsOptions {
  timeoutMs: number;
  concurrency: number;
  retentionMs: number;
}

/** A job this process is running or about to run. */
interface LiveJob {
  record: JobRecord;
  /** The body's globals, echoed in the reply (kept sealed in the record). */
  globals: Record<string, string>;
  log: JobLog;
  prepared: PreparedRun;
  handle?: RunHandle;
  /** A stop arrived before the job had a run to cancel (while its queued record was being written). */
  stopRequested?: boolean;
  /** Resolves once the final record is stored: the record, and its reply (with the globals echo) as JSON text. */
  done: Promise<FinishedLiveJob>;
  settle(finished: FinishedLiveJob): void;
}

interface FinishedLiveJob {
  record: JobRecord;
  replyJson: string;
}

export type JobView = { kind: 'job'; record: JobRecord } | { kind: 'response'; response: WorkflowResponse };

export class JobsService {
  private readonly live = new Map<string, LiveJob>();
  private readonly queue: JobQueue<LiveJob>;
  private readonly sweeper: NodeJS.Timeout;
  /** Set at shutdown: nothing is written after the store closes (jobs left running recover as interrupted). */
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly flows: FlowsService,
    private readonly versions: FlowVersionsService,
    private readonly runner: FlowRunner,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
    private readonly options: JobsOptions,
  ) {
    this.queue = new JobQueue(options.concurrency, (job) => this.execute(job));
    this.sweeper = setInterval(() => void this.expireLogs(), Math.min(options.retentionMs, 60_000)).unref();
  }

  /**
   * Creates a job for the request; everything refusable (unknown flow or version, invalid flow, bad inputs) is
   * refused here, before a job exists. Sync and streamed jobs start at once; background jobs are queued.
   */
  async submit(userId: string, request: WorkflowRequest, headerGlobals: Record<string, string>, mode: JobMode): Promise<LiveJob> {
    const flow = await this.flows.findRunnable(userId, request.flow_id);
    if (!flow) throw withCode(new NotFoundError(`Flow '${request.flow_id}' does not exist. Verify the flow_id and try again.`), 'FLOW_NOT_FOUND');
    const version = request.flow_version ? await withFlowVersionCode(() => this.versions.resolve(flow, request.flow_version!)) : undefined;
    const now = new Date().toISOString();
    const record: JobRecord = {
      id: timeOrderedId(),
      flow_id: flow.id,
      user_id: userId,
      mode,
      status: mode === 'background' ? 'queued' : 'in_progress',
      created_at: now,
      flow_version: version?.hash ?? this.versions.hashOf(flow),
      inputs: request.inputs ?? {},
      errors: [],
      event_count: 0,
    };
    if (Object.keys(request.globals).length > 0) record.globals_sealed = this.secrets.seal(JSON.stringify(request.globals));
    const job = this.prepare(record, flow, version, { ...headerGlobals, ...request.globals }, request.globals);
    this.live.set(record.id, job);
    if (mode === 'background') {
      job.log.append('job_status', this.statusData(record));
      try {
        await this.store.jobs.put(record);
      } catch (error) {
        this.live.delete(record.id);
        throw error;
      }
      this.queue.push(job);
    } else {
      void this.execute(job);
    }
    return job;
  }

  /**
   * The sync reply once the job ends (timed out and cancelled jobs included): its status and errors, and the full
   * run reply as JSON text (encoded once, shared with the stored record and log).
   */
  async result(job: LiveJob): Promise<{ status: JobStatus; errors: ErrorDetail[]; json: string }> {
    const { record, replyJson } = await job.done;
    return { status: record.status, errors: record.errors, json: replyJson };
  }

  /** Status and, once finished, the full run reply; 404 for unknown jobs and other users' jobs. */
  async view(userId: string, jobId: string): Promise<JobView> {
    const record = this.live.get(jobId)?.record ?? (await this.store.jobs.get(jobId));
    if (!record || record.user_id !== userId) throw jobNotFound(jobId);
    if (!TERMINAL_STATUSES.has(record.status) || !record.response) return { kind: 'job', record };
    return { kind: 'response', response: this.withGlobals(record) };
  }

  /** Follows a job's log after event `after`; a finished job replays its stored log. Returns the unsubscribe. */
  async watch(userId: string, jobId: string, after: number, watcher: LogWatcher): Promise<() => void> {
    const job = this.live.get(jobId);
    if (job) {
      if (job.record.user_id !== userId) throw jobNotFound(jobId);
      return job.log.watch(after, watcher);
    }
    const record = await this.store.jobs.get(jobId);
    if (!record || record.user_id !== userId) throw jobNotFound(jobId);
    const events = (await this.store.jobs.events(jobId)) ?? this.expiredLog(record);
    for (const event of events) if (event.seq > after) watcher.onEvent(event);
    watcher.onEnd();
    return () => {};
  }

  /** Cancels a started job (its sync or streaming client went away, or a stop): one about to start never runs. */
  cancel(job: LiveJob): void {
    if (job.handle) job.handle.cancel('cancelled');
    else job.stopRequested = true;
  }

  /** Cancels a queued or running job; a finished job keeps its status and the reply says so. */
  async stop(userId: string, jobId: string): Promise<string> {
    const job = this.live.get(jobId);
    if (!job) {
      const record = await this.store.jobs.get(jobId);
      if (!record || record.user_id !== userId) throw jobNotFound(jobId);
      return `Job ${jobId} already finished (${record.status}).`;
    }
    if (job.record.user_id !== userId) throw jobNotFound(jobId);
    if (this.queue.remove(job)) await this.finish(job, CANCELLED_BEFORE_START);
    else this.cancel(job);
    const final = (await job.done).record;
    return final.status === 'cancelled' ? `Job ${jobId} cancelled successfully.` : `Job ${jobId} already finished (${final.status}).`;
  }

  /** Runs again what a stopped process left: queued jobs run, running ones are marked failed. */
  async recover(): Promise<{ requeued: number; interrupted: number }> {
    const counts = { requeued: 0, interrupted: 0 };
    for (const record of await this.store.jobs.unfinished()) {
      const job = record.status === 'queued' && record.mode === 'background' ? await this.requeued(record) : undefined;
      if (job) {
        this.live.set(record.id, job);
        job.log.append('job_status', this.statusData(record));
        this.queue.push(job);
        counts.requeued++;
      } else {
        await this.markInterrupted(record);
        counts.interrupted++;
      }
    }
    await this.expireLogs();
    return counts;
  }

  /** Stops writing. Running jobs are not cancelled: after a restart they read as interrupted, queued ones run. */
  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
  }

  /** A queued job left by a stopped process, ready to run again; undefined when it cannot (its flow is gone...). */
  private async requeued(record: JobRecord): Promise<LiveJob | undefined> {
    const flow = await this.store.flows.get(record.flow_id);
    if (!flow || flow.user_id !== record.user_id) return undefined;
    try {
      const version = record.flow_version ? await this.versions.resolve(flow, record.flow_version) : undefined;
      const globals = this.echoedGlobals(record);
      return this.prepare(record, flow, version, globals, globals);
    } catch (error) {
      this.logger.warn({ err: error, jobId: record.id }, 'queued job cannot run after the restart');
      return undefined;
    }
  }

  /** `variables` are the run's request variables (body globals over header ones); `globals` the body's, echoed. */
  private prepare(record: JobRecord, flow: FlowRecord, version: { hash: string; data: unknown } | undefined, variables: Record<string, string>, globals: Record<string, string>): LiveJob {
    const graph = this.runner.graphOf(flow, version);
    const flat = parseFlatInputs(graph, record.inputs);
    const prepared = this.runner.prepare({
      flow,
      userId: record.user_id,
      tweaks: flat.tweaks,
      overrides: flat.overrides,
      sessionId: flat.sessionId,
      requestVariables: variables,
      version,
      jobId: record.id,
      // Watchers of streamed and background jobs see tokens; a sync reply has no use for them.
      stream: record.mode !== 'sync',
    });
    let settle!: (finished: FinishedLiveJob) => void;
    const done = new Promise<FinishedLiveJob>((resolve) => (settle = resolve));
    return { record, globals, log: new JobLog(), prepared, done, settle };
  }

  private async execute(job: LiveJob): Promise<void> {
    if (job.stopRequested) return this.finish(job, CANCELLED_BEFORE_START);
    job.record = { ...job.record, status: 'in_progress', started_at: new Date().toISOString() };
    job.log.append('job_status', this.statusData(job.record));
    if (this.closed) return;
    // A sync job's id reaches its caller only with the result, so only streamed and background jobs need their
    // in_progress state on disk (a restart then marks them failed). Not awaited: the final write follows in order.
    if (job.record.mode !== 'sync') this.store.jobs.put(job.record).catch((err) => this.logger.error({ err, jobId: job.record.id }, 'job status write failed'));
    try {
      job.handle = job.prepared.start({
        timeoutMs: this.options.timeoutMs,
        onEvent: (event) => {
          const entry = workflowEvent(event);
          if (entry) job.log.append(entry.event, entry.data);
        },
      });
      await this.finish(job, await job.handle.outcome);
    } catch (error) {
      this.logger.error({ err: error, jobId: job.record.id }, 'job failed unexpectedly');
      const failure = { vertexId: '', componentType: '', displayName: '', error: error instanceof Error ? error : new Error(String(error)) };
      await this.finish(job, { status: 'failed', results: new Map(), durations: new Map(), skipped: new Set(), failure });
    }
  }

  private async finish(job: LiveJob, outcome: JobOutcome): Promise<void> {
    const { record, log, prepared } = job;
    const status: JobStatus = outcome.status;
    const errors = outcomeErrors(outcome, record.flow_id, this.options.timeoutMs / 1000);
    const outputs = status === 'completed' ? componentOutputs(prepared.graph, outcome) : {};
    for (const output of Object.values(outputs)) log.append('output', output);
    if (status === 'failed') log.append('error', errors[0]);
    const { final, recordJson, replyJson } = this.finished(record, status, errors, runResponse(record, status, outputs, errors), log.events.length + 1, job.globals);
    this.appendFinalStatus(log, final, replyJson, job.globals);
    job.record = final;
    if (this.closed) return;
    try {
      await this.store.jobs.putFinished({ record: final, recordJson, logJson: logJson(log.events), expiresAt: Date.now() + this.options.retentionMs });
    } catch (err) {
      this.logger.error({ err, jobId: final.id }, 'job result write failed');
    }
    this.live.delete(final.id);
    log.end();
    job.settle({ record: final, replyJson });
  }

  private async markInterrupted(record: JobRecord): Promise<void> {
    const errors = [{ error: 'The service stopped while this job was running; it did not finish.', code: 'JOB_INTERRUPTED', details: null }];
    const globals = this.echoedGlobals(record);
    const { final, recordJson, replyJson } = this.finished(record, 'failed', errors, runResponse(record, 'failed', {}, errors), 1, globals);
    const log = new JobLog();
    this.appendFinalStatus(log, final, replyJson, globals);
    await this.store.jobs.putFinished({ record: final, recordJson, logJson: logJson(log.events), expiresAt: Date.now() + this.options.retentionMs });
  }

  /** The terminal record, its JSON text and the reply's, the response encoded once for all three. */
  private finished(record: JobRecord, status: JobStatus, errors: ErrorDetail[], response: StoredResponse, eventCount: number, globals: Record<string, string>) {
    const responseText = JSON.stringify(response);
    // An unfinished record has no response of its own (were there one, the text's later key would win on parse).
    const head = { ...record, status, finished_at: new Date().toISOString(), errors, event_count: eventCount };
    const { record: final, json: recordJson } = finishedRecord(head, response, responseText);
    return { final, recordJson, replyJson: replyJson(responseText, globals) };
  }

  /** The log's last event: the terminal status with the reply (its text reused for the event's data). */
  private appendFinalStatus(log: JobLog, final: JobRecord, replyText: string, globals: Record<string, string>): void {
    const status = this.statusData(final);
    log.append('job_status', { ...status, response: { ...final.response, globals } }, withKeyJson(status, 'response', replyText));
  }

  /** What a watcher sees of a job whose log retention removed: its terminal status, at its original number. */
  private expiredLog(record: JobRecord): JobEvent[] {
    const data = { ...this.statusData(record), response: record.response ? this.withGlobals(record) : undefined };
    return [{ seq: Math.max(1, record.event_count), event: 'job_status', data }];
  }

  private statusData(record: JobRecord) {
    return { job_id: record.id, flow_id: record.flow_id, status: record.status, timestamp: new Date().toISOString() };
  }

  private withGlobals(record: JobRecord): WorkflowResponse {
    return { ...record.response!, globals: this.echoedGlobals(record) };
  }

  private echoedGlobals(record: JobRecord): Record<string, string> {
    return record.globals_sealed ? (JSON.parse(this.secrets.open(record.globals_sealed)) as Record<string, string>) : {};
  }

  private async expireLogs(): Promise<void> {
    if (this.closed) return;
    try {
      await this.store.jobs.expireEvents(Date.now());
    } catch (err) {
      this.logger.warn({ err }, 'job log expiry failed');
    }
  }
}

export type { LiveJob };

const CANCELLED_BEFORE_START: JobOutcome = { status: 'cancelled', results: new Map(), durations: new Map(), skipped: new Set() };

const jobNotFound = (jobId: string) => withCode(new NotFoundError(`Job ${jobId} not found`), 'JOB_NOT_FOUND');

async function withFlowVersionCode<T>(resolve: () => Promise<T>): Promise<T> {
  try {
    return await resolve();
  } catch (error) {
    if (error instanceof NotFoundError) throw withCode(error, 'FLOW_VERSION_NOT_FOUND');
    throw error;
  }
}
