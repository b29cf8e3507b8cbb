/**
 * One run this process knows: its identity, its status (changed only through `advance`), its log, and the answer
 * its entry point is waiting for. The lifecycle (run-lifecycle.ts) drives it; entry points read it and cancel it.
 */
import type { HostedRun } from '../../actors/actor-host.js';
import type { RunAdapter, RunStart } from './run-adapter.js';
import type { CancelReason, RunFailure } from './run-failure.js';
import type { EventLog } from './event-log.port.js';
import { RunLog } from './run-log.js';
import type { RunWatch } from './run-watch.js';
import { advance, type RunStatus } from './run-status.js';

export class LiveRun<A> {
  readonly id: string;
  readonly userId: string;
  readonly flowId: string;
  readonly adapter: RunAdapter<A>;
  readonly log: EventLog | undefined;
  readonly answer: Promise<A>;
  #status: RunStatus;
  /** What the lifecycle stopped the run for (a cancel, a timeout), once it did. */
  stoppedFor: RunFailure | undefined;
  /** The execution, once started. */
  hosted: HostedRun | undefined;
  /** Its watchers (records, export), once it executes. */
  watch: RunWatch | undefined;
  /** Settle `answer`: for the lifecycle only. */
  resolve!: (answer: A) => void;
  reject!: (error: unknown) => void;

  constructor(
    start: Omit<RunStart<A>, 'job'>,
    status: RunStatus,
    private readonly onCancel: (run: LiveRun<A>, reason: CancelReason) => void,
    /** The run's log when the lifecycle gives one (shared between instances, or holding a dead owner's entries). */
    log?: EventLog,
  ) {
    this.id = start.id;
    this.userId = start.userId;
    this.flowId = start.flowId;
    this.adapter = start.adapter;
    this.#status = status;
    const spec = start.adapter.log;
    this.log = log ?? (spec ? new RunLog(spec.retention, spec.entry) : undefined);
    this.answer = new Promise<A>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  get status(): RunStatus {
    return this.#status;
  }

  /** Moves the run on; throws on a move the transition table does not allow. */
  moveTo(status: RunStatus): void {
    this.#status = advance(this.#status, status);
  }

  /**
   * Cancels the run: a queued run ends without starting, a running one is aborted (its components see the
   * abort). A run that already ended keeps its status.
   */
  cancel(reason: CancelReason): void {
    this.onCancel(this, reason);
  }
}
