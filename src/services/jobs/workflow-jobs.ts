/**
 * v2 workflow jobs over the run lifecycle. Every v2 run (sync, streamed or background) is a job: a durable record,
 * an ordered event log that watchers follow live or replay once stored, and one run. This service turns requests
 * into runs and records into replies; the lifecycle owns statuses, timeouts, cancellation and recovery.
 */
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import type { JobEvent, JobMode, JobRecord } from '../../../protocol/job.schema.js';
import { TERMINAL_STATUSES, type WorkflowRequest, type WorkflowResponse } from '../../../protocol/workflow.schema.js';
import type { SecretBox } from '../../auth/secret-box.js';
import { inputVertices } from '../../engine/select.js';
import { NotFoundError, withCode } from '../../errors/index.js';
import { timeOrderedId } from '../../ids/time-ordered-id.js';
import { parseFlatInputs } from '../../langflow/flat-inputs.js';
import type { Logger } from '../../logger.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { LogRetention } from '../../runs/log-retention.js';
import type { RunStart } from '../../runs/run-adapter.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import { replayFinished, type LogWatcher } from '../../runs/run-log.js';
import type { RecoverySource, UnfinishedRun } from '../../runs/recovery.js';
import type { Store } from '../../store/port.js';
import type { FlowRunner } from '../flow-runner.js';
import type { FlowVersionsService } from '../flow-versions.service.js';
import type { FlowsService } from '../flows.service.js';
import { statusData, WorkflowJob, type FinishedJob } from './workflow-job.js';

export type JobView = { kind: 'job'; record: JobRecord } | { kind: 'response'; response: WorkflowResponse };

export type JobRun = LiveRun<FinishedJob>;

type Version = { hash: string; data: unknown };

/** A job's record as it stands now (queued, once a background job is acknowledged). */
export const jobRecord = (run: JobRun): JobRecord => (run.adapter as WorkflowJob).record;

/**
 * Where instances share jobs (shared-jobs.ts): background jobs queue for every instance, jobs started here are
 * leased to this one, and jobs running elsewhere are followed and stopped through the bus.
 */
export interface JobSharing {
  enqueue(start: RunStart<FinishedJob>): Promise<void>;
  own(jobId: string): void;
  watch(jobId: string, after: number, watcher: LogWatcher): () => void;
  stop(record: JobRecord): Promise<string>;
}

export class WorkflowJobs {
  /** Set where instances share jobs; absent, every job runs in the instance that took it. */
  sharing?: JobSharing;

  constructor(
    private readonly runs: Runs,
    private readonly store: Store,
    private readonly flows: FlowsService,
    private readonly versions: FlowVersionsService,
    private readonly runner: FlowRunner,
    private readonly secrets: SecretBox,
    private readonly retention: LogRetention,
    private readonly logger: Logger,
  ) {}

  /**
   * Creates a job for the request; everything refusable (unknown flow or version, invalid flow, bad inputs) is
   * refused here, before a job exists. Sync and streamed jobs start at once; background jobs are queued.
   */
  async submit(userId: string, request: WorkflowRequest, headerGlobals: Record<string, string>, mode: 'background'): Promise<JobRecord>;
  async submit(userId: string, request: WorkflowRequest, headerGlobals: Record<string, string>, mode: Exclude<JobMode, 'background'>): Promise<JobRun>;
  async submit(userId: string, request: WorkflowRequest, headerGlobals: Record<string, string>, mode: JobMode): Promise<JobRun | JobRecord> {
    const flow = await this.flows.findRunnable(userId, request.flow_id);
    if (!flow) throw withCode(new NotFoundError(`Flow '${request.flow_id}' does not exist. Verify the flow_id and try again.`), 'FLOW_NOT_FOUND');
    const version = request.flow_version ? await withFlowVersionCode(() => this.versions.resolve(flow, request.flow_version!)) : undefined;
    const record = this.newRecord(flow, userId, mode, version?.hash ?? this.versions.hashOf(flow), request.inputs ?? {});
    if (Object.keys(request.globals).length > 0) record.globals_sealed = this.secrets.seal(JSON.stringify(request.globals));
    // A background job may run after a restart, or on another instance: its header variables go with its record.
    if (mode === 'background' && Object.keys(headerGlobals).length > 0) record.header_globals_sealed = this.secrets.seal(JSON.stringify(headerGlobals));
    const start = this.runStart(record, flow, version, { ...headerGlobals, ...request.globals }, request.globals);
    if (mode === 'background') return this.enqueue(start);
    const run = this.runs.start(start);
    this.sharing?.own(run.id);
    return run;
  }

  /** A background job, answered once it is durable: queued here, or for every instance where they share jobs. */
  private async enqueue(start: RunStart<FinishedJob>): Promise<JobRecord> {
    if (!this.sharing) return jobRecord(await this.runs.enqueue(start));
    const record = (start.adapter as WorkflowJob).record;
    await this.store.jobs.put(record);
    await this.sharing.enqueue(start);
    return record;
  }

  /**
   * A webhook call as a background job of the flow's owner: the payload reaches every Webhook component's `data`
   * and Chat Inputs get an empty input, as flat inputs, so the job is recorded (and a restart runs it if it had not
   * started) and its status can be read like any job's.
   */
  enqueueWebhook(flow: FlowRecord, payload: string): Promise<JobRecord> {
    const graph = this.runner.graphOf(flow);
    const inputs: Record<string, unknown> = {};
    for (const vertex of inputVertices(graph, 'chat')) inputs[`${vertex.id}.input_value`] = '';
    for (const vertex of graph.vertices.values()) if (vertex.component.type === 'Webhook') inputs[`${vertex.id}.data`] = payload;
    const record = this.newRecord(flow, flow.user_id!, 'background', this.versions.hashOf(flow), inputs);
    return this.enqueue(this.runStart(record, flow, undefined, {}, {}));
  }

  /** Status and, once finished, the full run reply; 404 for unknown jobs and other users' jobs. */
  async view(userId: string, jobId: string): Promise<JobView> {
    const record = this.liveJob(userId, jobId)?.record ?? (await this.stored(userId, jobId));
    if (!TERMINAL_STATUSES.has(record.status) || !record.response) return { kind: 'job', record };
    return { kind: 'response', response: this.withGlobals(record) };
  }

  /** Follows a job's log after event `after`; a finished job replays its stored log. Returns the unsubscribe. */
  async watch(userId: string, jobId: string, after: number, watcher: LogWatcher): Promise<() => void> {
    if (this.liveJob(userId, jobId)) return this.runs.find(jobId)!.log!.watch(after, watcher);
    const record = await this.stored(userId, jobId);
    if (this.sharing && !TERMINAL_STATUSES.has(record.status)) return this.sharing.watch(jobId, after, watcher);
    // A job leaves the live runs only once its final record and log are stored.
    return replayFinished((await this.store.jobs.events(jobId)) ?? this.expiredLog(record), after, watcher);
  }

  /** Cancels a queued or running job; a finished job keeps its status and the reply says so. */
  async stop(userId: string, jobId: string): Promise<string> {
    const live = this.liveJob(userId, jobId) && (this.runs.find(jobId) as JobRun);
    if (!live) {
      const record = await this.stored(userId, jobId);
      if (this.sharing && !TERMINAL_STATUSES.has(record.status)) return this.sharing.stop(record);
      return `Job ${jobId} already finished (${record.status}).`;
    }
    live.cancel('stop');
    const final = (await live.answer).record;
    return final.status === 'cancelled' ? `Job ${jobId} cancelled successfully.` : `Job ${jobId} already finished (${final.status}).`;
  }

  /** What a stopped process left: queued jobs run again, running ones end interrupted. */
  recovery(): RecoverySource {
    return {
      name: 'workflow jobs',
      unfinished: async () => Promise.all((await this.store.jobs.unfinished()).map((record) => this.unfinished(record))),
    };
  }

  /** A job record as a run: one that can run again when queued (`job` set), else one to end. */
  async unfinished(record: JobRecord): Promise<UnfinishedRun> {
    const status = record.status === 'queued' ? 'queued' : 'in_progress';
    const resumable = status === 'queued' && record.mode === 'background' ? await this.resumable(record) : undefined;
    if (resumable) return { status, run: resumable, job: resumable.job };
    const adapter = new WorkflowJob(record, this.echoedGlobals(record), undefined, { jobs: this.store.jobs, retention: this.retention });
    return { status, run: { id: record.id, userId: record.user_id, flowId: record.flow_id, adapter } };
  }

  /** A queued job left by a stopped process, ready to run again; undefined when it cannot (its flow is gone...). */
  private async resumable(record: JobRecord): Promise<RunStart<FinishedJob> | undefined> {
    const flow = await this.store.flows.get(record.flow_id);
    if (!flow || flow.user_id !== record.user_id) return undefined;
    try {
      const version = record.flow_version ? await this.versions.resolve(flow, record.flow_version) : undefined;
      const globals = this.echoedGlobals(record);
      return this.runStart(record, flow, version, { ...this.opened(record.header_globals_sealed), ...globals }, globals);
    } catch (error) {
      this.logger.warn({ err: error, jobId: record.id }, 'queued job cannot run after the restart');
      return undefined;
    }
  }

  private newRecord(flow: FlowRecord, userId: string, mode: JobMode, flowVersion: string, inputs: Record<string, unknown>): JobRecord {
    const status = mode === 'background' ? 'queued' : 'in_progress';
    return { id: timeOrderedId(), flow_id: flow.id, user_id: userId, mode, status, created_at: new Date().toISOString(), flow_version: flowVersion, inputs, errors: [], event_count: 0 };
  }

  /** `variables` are the run's request variables (body globals over header ones); `globals` the body's, echoed. */
  private runStart(record: JobRecord, flow: FlowRecord, version: Version | undefined, variables: Record<string, string>, globals: Record<string, string>): RunStart<FinishedJob> {
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
    const adapter = new WorkflowJob(record, globals, prepared.graph, { jobs: this.store.jobs, retention: this.retention });
    return { id: record.id, userId: record.user_id, flowId: flow.id, job: prepared.job, adapter };
  }

  /** The user's job running in this process, if it is one. */
  private liveJob(userId: string, jobId: string): WorkflowJob | undefined {
    const live = this.runs.find(jobId);
    if (!live || !(live.adapter instanceof WorkflowJob)) return undefined;
    if (live.userId !== userId) throw jobNotFound(jobId);
    return live.adapter;
  }

  private async stored(userId: string, jobId: string): Promise<JobRecord> {
    const record = await this.store.jobs.get(jobId);
    if (!record || record.user_id !== userId) throw jobNotFound(jobId);
    return record;
  }

  /** What a watcher sees of a job whose log retention removed: its terminal status, at its original number. */
  private expiredLog(record: JobRecord): JobEvent[] {
    const data = { ...statusData(record), response: record.response ? this.withGlobals(record) : undefined };
    return [{ seq: Math.max(1, record.event_count), event: 'job_status', data }];
  }

  private withGlobals(record: JobRecord): WorkflowResponse {
    return { ...record.response!, globals: this.echoedGlobals(record) };
  }

  private echoedGlobals(record: JobRecord): Record<string, string> {
    return this.opened(record.globals_sealed);
  }

  private opened(sealed: string | undefined): Record<string, string> {
    return sealed ? (JSON.parse(this.secrets.open(sealed)) as Record<string, string>) : {};
  }
}

const jobNotFound = (jobId: string) => withCode(new NotFoundError(`Job ${jobId} not found`), 'JOB_NOT_FOUND');

async function withFlowVersionCode<T>(resolve: () => Promise<T>): Promise<T> {
  try {
    return await resolve();
  } catch (error) {
    if (error instanceof NotFoundError) throw withCode(error, 'FLOW_VERSION_NOT_FOUND');
    throw error;
  }
}
