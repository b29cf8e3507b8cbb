/**
 * One v2 workflow job as the run lifecycle's adapter: its record (written queued, in progress and finished), its
 * log in the v2 vocabulary (job_status at each status, the run's events, outputs or the error, the final status
 * with the reply), and its reply. The status, timeout and recovery are the lifecycle's; this only gives them shape.
 */
import type { JobRecord } from '../../../protocol/job.schema.js';
import type { JobStatus } from '../../../protocol/workflow.schema.js';
import type { FlowGraph } from '../../engine/graph.js';
import { workflowEvent } from '../../langflow/workflow-events.js';
import { failureDetail } from '../../runs/failure-table.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { LogRetention } from '../../runs/log-retention.js';
import type { RunAdapter, RunResult } from '../../runs/run-adapter.js';
import type { EventLog } from '../../runs/event-log.port.js';
import type { LeaseFence } from '../../store/job-leases.port.js';
import type { JobRepo } from '../../store/port.js';
import { componentOutputs } from './component-outputs.js';
import { finishedRecord, jobEvent, logJson, replyJson, withKeyJson } from './job-json.js';
import { runResponse } from './workflow-reply.js';

/** A finished job: its terminal record and its reply (with the globals echo) as JSON text, encoded once. */
export interface FinishedJob {
  record: JobRecord;
  recordJson: string;
  replyJson: string;
}

export interface WorkflowJobDeps {
  jobs: JobRepo;
  retention: LogRetention;
}

export class WorkflowJob implements RunAdapter<FinishedJob> {
  readonly log = { retention: 'replay' as const, entry: jobEvent, shared: true };
  readonly event = workflowEvent;

  constructor(
    /** The job's record as it stands (the lifecycle's status is copied in at each step). */
    public record: JobRecord,
    /** The request's globals, echoed in the reply (kept sealed in the record). */
    readonly globals: Record<string, string>,
    /** The graph that runs; absent for a job recovered only to be ended. */
    private readonly graph: FlowGraph | undefined,
    private readonly deps: WorkflowJobDeps,
  ) {}

  status(run: LiveRun<FinishedJob>): void {
    const status = run.status as JobStatus;
    this.record = status === 'in_progress' ? { ...this.record, status, started_at: new Date().toISOString() } : { ...this.record, status };
    run.log!.append('job_status', statusData(this.record));
  }

  queued(): Promise<void> {
    return this.deps.jobs.put(this.record);
  }

  /** A sync job's id reaches its caller only with the result: only streamed and background jobs record their start. */
  started(): Promise<void> | undefined {
    return this.record.mode === 'sync' ? undefined : this.deps.jobs.put(this.record);
  }

  settle(run: LiveRun<FinishedJob>, result: RunResult): FinishedJob {
    const log = run.log!;
    const { record } = this;
    const errors = result.failure ? [failureDetail(result.failure, record.flow_id)] : [];
    const outputs = result.status === 'completed' && this.graph ? componentOutputs(this.graph, result) : {};
    for (const output of Object.values(outputs)) log.append('output', output);
    if (result.status === 'failed') log.append('error', errors[0]);
    const response = runResponse(record, result.status, outputs, errors);
    const responseText = JSON.stringify(response);
    // An unfinished record has no response of its own (were there one, the text's later key would win on parse).
    // Header variables were kept only so that the job could run elsewhere or later: the finished record drops them.
    const { header_globals_sealed: _ran, ...kept } = record;
    const head = { ...kept, status: result.status, finished_at: new Date().toISOString(), errors, event_count: log.length + 1 };
    const { record: final, json: recordJson } = finishedRecord(head, response, responseText);
    const reply = replyJson(responseText, this.globals);
    appendFinalStatus(log, final, reply, this.globals);
    this.record = final;
    return { record: final, recordJson, replyJson: reply };
  }

  persist(run: LiveRun<FinishedJob>, finished: FinishedJob, fence?: LeaseFence): Promise<boolean> {
    const { record, recordJson } = finished;
    return this.deps.jobs.putFinished({ record, recordJson, logJson: logJson(run.log!.events), expiresAt: this.deps.retention.expiresAt() }, fence);
  }
}

export function statusData(record: JobRecord) {
  return { job_id: record.id, flow_id: record.flow_id, status: record.status, timestamp: new Date().toISOString() };
}

/** The log's last event: the terminal status with the reply (its text reused for the event's data). */
function appendFinalStatus(log: EventLog, final: JobRecord, replyText: string, globals: Record<string, string>): void {
  const status = statusData(final);
  log.append('job_status', { ...status, response: { ...final.response, globals } }, withKeyJson(status, 'response', replyText));
}
