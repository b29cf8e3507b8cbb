/**
 * One build as the run lifecycle's adapter: its log in Langflow's build vocabulary (src/langflow/build-events.ts),
 * kept whole so a reader that joins late replays it, and its last entries once it ends: `end` when it completed
 * or was cancelled, the failed vertex's error and invalid build then `end`, or a flow-level error. Statuses,
 * timeout and cancellation are the lifecycle's; a build keeps no record (as Langflow's, it lives in memory).
 */
import type { RunEvent } from '../../engine/events.js';
import type { BuildEvents } from '../../langflow/build-events.js';
import { failureError } from '../../runs/failure-table.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { RunAdapter, RunResult } from '../../runs/run-adapter.js';
import { isVertexFailure, type RunFailure } from '../../runs/run-failure.js';
import type { EventLog } from '../../runs/event-log.port.js';
import type { TerminalStatus } from '../../runs/run-status.js';

export interface BuildEnd {
  status: TerminalStatus;
  /** Why it did not complete (the voice entry points tell their clients). */
  failure?: RunFailure;
}

export class BuildRun implements RunAdapter<BuildEnd> {
  readonly log = { retention: 'replay' as const };
  /** The run's log, known from its first status (before any engine event): one engine event may be several entries. */
  private sink: EventLog | undefined;

  constructor(private readonly events: BuildEvents) {}

  status(run: LiveRun<BuildEnd>): void {
    this.sink ??= run.log;
  }

  readonly event = (event: RunEvent): undefined => {
    if (this.sink) this.events.append(event, this.sink);
    return undefined;
  };

  settle(run: LiveRun<BuildEnd>, result: RunResult): BuildEnd {
    const log = run.log!;
    const { failure } = result;
    if (!failure || failure.kind === 'cancelled') this.events.end(log);
    else if (isVertexFailure(failure)) this.events.vertexFailed(failure.vertexId, failure.error, log);
    else this.events.flowFailed(failureError(failure).message, 'error' in failure ? failure.error.name : failure.kind, log);
    return { status: result.status, failure: result.failure };
  }
}
