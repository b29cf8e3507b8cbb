/**
 * Builds (POST /api/v1/build/{flow_id}/flow) over the run lifecycle: a build is a run started at once whose log,
 * in Langflow's build vocabulary, is read back by job id (live, after the fact, or in polls that continue where
 * the last stopped). There is no second execution path: the run is the job actors', its timeout and cancellation
 * the lifecycle's. As Langflow's, builds live in memory: a finished build's log stays readable for a while, then goes.
 */
import type { BuildQuery, BuildRequest } from '../../../protocol/build.schema.js';
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import { NotFoundError } from '../../errors/index.js';
import { BuildEvents } from '../../langflow/build-events.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import type { LogEntry, LogWatcher } from '../../runs/run-log.js';
import type { FlowRunner } from '../flow-runner.js';
import { BuildRun, type BuildEnd } from './build-run.js';
import type { VertexBuildsService } from './vertex-builds.service.js';

/** How long a finished build's log stays readable (Langflow cleans its queues up after a few minutes too). */
const FINISHED_KEPT_MS = 10 * 60_000;
/** Finished builds kept at most; past it the oldest go first. */
const FINISHED_KEPT_MAX = 5_000;

export interface BuildJob {
  id: string;
  /** Who may read and cancel it: the caller, or a public flow's owner. */
  userId: string;
  run: LiveRun<BuildEnd>;
  /** Events already answered to polls: the next poll starts after them (Langflow's polls consume its queue). */
  polled: number;
  finished: boolean;
  /** A public build's visitor (its client_id cookie): the one who may read and cancel it without a key. */
  clientId?: string;
}

export interface BuildSpec {
  /** Who the build runs as: the caller, or a public flow's owner. */
  userId: string;
  flow: FlowRecord;
  body: BuildRequest;
  query: BuildQuery;
  /** The flow id the build runs, stores messages and records builds under (a public build's per-client id). */
  runFlowId?: string;
  /** A public build's visitor. */
  clientId?: string;
  requestVariables?: Record<string, string>;
}

export class BuildJobs {
  private readonly jobs = new Map<string, BuildJob>();

  constructor(
    private readonly runs: Runs,
    private readonly runner: FlowRunner,
    private readonly vertexBuilds: VertexBuildsService,
  ) {}

  /** Starts a build; everything refusable (a dangling edge, an unknown start or stop component) is refused here. */
  start(spec: BuildSpec): BuildJob {
    const { userId, flow, body, query } = spec;
    const inputs = body.inputs ?? undefined;
    const runFlowId = spec.runFlowId ?? flow.id;
    const targeted = inputs?.components?.length ? inputs.components : undefined;
    const overrides = new Map<string, Record<string, unknown>>();
    if (targeted && inputs?.input_value != null) for (const id of targeted) overrides.set(id, { input_value: inputs.input_value });
    const prepared = this.runner.prepare({
      flow,
      userId,
      data: body.data ?? undefined,
      inputValue: targeted ? undefined : inputs?.input_value,
      inputType: inputs?.type ?? 'any',
      sessionId: inputs?.session ?? runFlowId,
      startComponentId: body.start_component_id ?? query.start_component_id,
      stopComponentId: body.stop_component_id ?? query.stop_component_id,
      requestVariables: spec.requestVariables,
      overrides,
      // Langflow hands a build's files to the input vertex it builds.
      inputFiles: body.files ?? undefined,
    });
    prepared.job.flow = { id: runFlowId, name: query.flow_name ?? flow.name, userId };
    const logBuilds = body.log_builds ?? query.log_builds;
    const events = new BuildEvents(
      { graph: prepared.graph, plan: prepared.plan, flowId: runFlowId, sessionId: prepared.sessionId },
      logBuilds ? (build) => this.vertexBuilds.record(runFlowId, build) : undefined,
    );
    const run = this.runs.start({ id: prepared.jobId, userId, flowId: runFlowId, job: prepared.job, adapter: new BuildRun(events) });
    const job: BuildJob = { id: run.id, userId, run, polled: 0, finished: false, clientId: spec.clientId };
    this.jobs.set(job.id, job);
    void run.answer.then(
      () => this.finished(job),
      () => this.finished(job),
    );
    return job;
  }

  /** The user's build; another user's, unknown and forgotten ones are all "not found". */
  find(userId: string, jobId: string): BuildJob {
    return this.found(jobId, (job) => job.userId === userId);
  }

  /** A public build of the visitor with this client_id; any other build is "not found" to it. */
  findPublic(clientId: string, jobId: string): BuildJob {
    return this.found(jobId, (job) => job.clientId === clientId);
  }

  private found(jobId: string, mayRead: (job: BuildJob) => boolean): BuildJob {
    const job = this.jobs.get(jobId);
    if (!job || !mayRead(job)) throw new NotFoundError(`Job not found: ${jobId}`);
    return job;
  }

  /** Follows the build's log after event `after` (everything when 0); returns the unsubscribe function. */
  watch(job: BuildJob, after: number, watcher: LogWatcher): () => void {
    return job.run.log!.watch(after, watcher);
  }

  /** Every event so far. */
  events(job: BuildJob): readonly LogEntry[] {
    return job.run.log!.events;
  }

  /**
   * A poll: the events since the last poll, or, when there are none yet, the next one as it comes (nothing once
   * the build's log has ended). `gone` gives up the wait when the client leaves.
   */
  poll(job: BuildJob, gone: (stop: () => void) => void): Promise<LogEntry[]> {
    return new Promise((resolve) => {
      const got: LogEntry[] = [];
      let replaying = true;
      let done = false;
      let detach: () => void = () => {};
      const finish = () => {
        if (done) return;
        done = true;
        detach();
        if (got.length > 0) job.polled = got[got.length - 1].seq;
        resolve(got);
      };
      detach = this.watch(job, job.polled, { onEvent: (entry) => (got.push(entry), replaying ? undefined : finish()), onEnd: finish });
      replaying = false;
      if (got.length > 0 || done) finish();
      else gone(finish);
    });
  }

  /** Cancels a running build and waits for its end; a finished one counts as cancelled (Langflow's answer too). */
  async cancel(job: BuildJob): Promise<void> {
    if (job.finished) return;
    job.run.cancel('stop');
    await job.run.answer;
  }

  private finished(job: BuildJob): void {
    job.finished = true;
    setTimeout(() => this.jobs.delete(job.id), FINISHED_KEPT_MS).unref();
    if (this.jobs.size <= FINISHED_KEPT_MAX) return;
    for (const [id, kept] of this.jobs) {
      if (this.jobs.size <= FINISHED_KEPT_MAX) break;
      if (kept.finished) this.jobs.delete(id);
    }
  }
}
