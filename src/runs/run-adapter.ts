/**
 * What an entry point gives the run lifecycle. An entry point (v1 run and stream, webhook, v2 workflows, responses,
 * build, the CLI; MCP tool calls and voice turns next) translates its request into a RunStart and the run into its
 * wire shape through these hooks. It keeps no status, log, timeout or recovery of its own: the lifecycle calls the
 * hooks at the right moments, in order.
 */
import type { JobInput } from '../../actors/job.actor.js';
import type { ExecutionResult } from '../engine/execution-result.js';
import type { RunEvent } from '../engine/events.js';
import type { LeaseFence } from '../store/job-leases.port.js';
import type { LiveRun } from './live-run.js';
import type { EntryMaker, LogRetention } from './run-log.js';
import type { RunFailure } from './run-failure.js';
import type { TerminalStatus } from './run-status.js';

/** How a run ended: its status, why it did not complete, and what each vertex produced. */
export interface RunResult extends Omit<ExecutionResult, 'end'> {
  status: TerminalStatus;
  failure?: RunFailure;
}

/** What a run's log keeps and how it makes entries; `shared`: other instances may follow it (v2 jobs). */
export interface RunLogSpec {
  retention: LogRetention;
  entry?: EntryMaker;
  shared?: boolean;
}

export interface RunAdapter<A> {
  /** The run's event log, when someone may watch it (absent: no log is kept). */
  log?: RunLogSpec;
  /** The log entry for an engine event, in the entry point's own vocabulary; undefined: not logged. */
  event?(event: RunEvent): { event: string; data: unknown } | undefined;
  /** The run entered a status on its way (queued, in_progress): an entry point that reports statuses logs them. */
  status?(run: LiveRun<A>): void;
  /** Records a background run before anyone hears of it; awaited, and a failure refuses the run. */
  queued?(run: LiveRun<A>): Promise<void>;
  /** Records that the run started; not awaited (the final record follows in order), a failure is logged. */
  started?(run: LiveRun<A>): Promise<void> | undefined;
  /** The run's answer, built once as it ends: its reply, its final record, the last entries of its log. */
  settle(run: LiveRun<A>, result: RunResult): A;
  /**
   * Records the answer; awaited before the answer is given. A failure is logged and the answer stands. `fence`: the
   * run's lease, where runs are leased (v2 jobs in a cluster), to be ended with the record in one transaction;
   * resolves false when the fence refused the write.
   */
  persist?(run: LiveRun<A>, answer: A, fence?: LeaseFence): Promise<void | boolean>;
}

/** A run as an entry point asks for it. */
export interface RunStart<A> {
  /** Unique among runs: a v2 job id, a response id, a fresh UUID. */
  id: string;
  userId: string;
  flowId: string;
  /** What the actors execute. */
  job: JobInput;
  adapter: RunAdapter<A>;
}

/** The simplest adapter: no log, no record, the run's result as its answer (a v1 batch run, the CLI, tests). */
export const resultAdapter: RunAdapter<RunResult> = { settle: (_run, result) => result };
