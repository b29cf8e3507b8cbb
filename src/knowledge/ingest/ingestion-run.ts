/**
 * One ingestion's adapter on the run lifecycle: it records the ingestion queued before its caller hears of it and
 * in progress as it starts, keeps a replayable log (progress entries, then `end` with the final record), and
 * records how it ended. A knowledge base's record learns of its last ingestion's failure here.
 */
import type { IngestionItem, IngestionRecord } from '../../../protocol/knowledge-base.schema.js';
import { failureError } from '../../runs/failure-table.js';
import type { EventLog } from '../../runs/event-log.port.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { RunAdapter, RunResult } from '../../runs/run-adapter.js';
import type { KnowledgeRepo } from '../../store/knowledge.port.js';

/** What the ingestion's work tells its adapter (the work runs inside the job; the adapter settles the run). */
export interface IngestionState {
  log?: EventLog;
  run?: LiveRun<IngestionRecord>;
  items?: IngestionItem[];
  chunks?: number;
  bytes?: number;
  /** The work's own words for why it failed (the run's failure wraps them in the vertex's name). */
  error?: string;
}

export class IngestionRun implements RunAdapter<IngestionRecord> {
  readonly log = { retention: 'replay' as const };

  constructor(
    public record: IngestionRecord,
    readonly state: IngestionState,
    private readonly repo: KnowledgeRepo,
    /** Removes the files staged for this ingestion once it ended. */
    private readonly cleanUp: (record: IngestionRecord) => Promise<void>,
  ) {}

  status(run: LiveRun<IngestionRecord>): void {
    this.state.log = run.log;
    this.state.run = run;
    this.record = { ...this.record, status: run.status === 'queued' ? 'queued' : 'in_progress' };
  }

  queued(): Promise<void> {
    return this.repo.putJob(this.record);
  }

  started(): Promise<void> {
    this.record = { ...this.record, status: 'in_progress' };
    return this.repo.putJob(this.record);
  }

  settle(run: LiveRun<IngestionRecord>, result: RunResult): IngestionRecord {
    const { state } = this;
    const failure = result.failure;
    const error = failure ? (failure.kind === 'cancelled' ? 'ingestion cancelled by user' : (state.error ?? failureError(failure).message)) : null;
    const final: IngestionRecord = {
      ...this.record,
      status: result.status,
      error_message: error,
      items: state.items ?? this.record.items,
      chunks_created: result.status === 'completed' ? (state.chunks ?? 0) : 0,
      total_bytes: state.bytes ?? this.record.total_bytes,
      finished_at: new Date().toISOString(),
    };
    this.record = final;
    run.log?.append('end', final);
    return final;
  }

  async persist(_run: LiveRun<IngestionRecord>, final: IngestionRecord): Promise<void> {
    await this.repo.putJob(final);
    const failed = final.status !== 'completed';
    await this.repo.update(final.kb_id, (kb) => ({ ...kb, last_job_id: final.id, failure_reason: failed ? final.error_message : null, updated_at: new Date().toISOString() }));
    await this.cleanUp(final);
  }
}
