/**
 * Hosts the engine on nact: one actor system per process, a job actor per run (its vertices run as tasks reporting
 * to it) and the session actors that own message history. Whoever starts runs (src/runs/) asks the host; nothing
 * below it knows about statuses, timeouts or records.
 */
import { dispatch, start, stop } from 'nact';
import type { RunEvent } from '../src/engine/events.js';
import type { ExecutionResult } from '../src/engine/execution-result.js';
import { LazyAbortController } from '../src/engine/lazy-abort.js';
import type { Logger } from '../src/logger.js';
import type { MessageRepo } from '../src/store/port.js';
import { releaseStoppedChildren } from './actor-release.js';
import { spawnJob, type JobInput, type JobMsg, type JobSpec } from './job.actor.js';
import { SessionPool } from './session-pool.js';

/** How an execution ended, and whether the messages it stored reached the store. */
export interface HostedResult extends ExecutionResult {
  /** Set when a commit holding the run's messages failed: the run's history is not durable. */
  storeError?: Error;
}

export interface HostedRun {
  /** Settles once the execution ended and the messages it stored are committed (or failed to be). */
  result: Promise<HostedResult>;
  /** Aborts the execution: components in flight see the abort, and the result says `aborted`. */
  abort(): void;
}

export class ActorHost {
  private readonly system = start();
  readonly sessions: SessionPool;

  constructor(messages: MessageRepo, private readonly logger: Logger, sessionIdleMs?: number) {
    // A job actor per run comes and goes under the system: its registries of them must not keep them (see there).
    releaseStoppedChildren(this.system);
    this.sessions = new SessionPool(this.system, messages, logger, sessionIdleMs);
  }

  run(input: JobInput, emit: (event: RunEvent) => void): HostedRun {
    const controller = new LazyAbortController();
    let settle!: (result: ExecutionResult) => void;
    const executed = new Promise<ExecutionResult>((resolve) => (settle = resolve));
    // Writes of one session batch share a commit: each commit is awaited once.
    const writes: Promise<void>[] = [];
    const memory = this.sessions.memoryFor(input.flow.id, (committed) => {
      if (writes[writes.length - 1] !== committed) writes.push(committed);
    });
    // Field by field rather than `{ ...input, memory, logger, emit }`: the job keeps this object for the whole run,
    // and the spread (megamorphic here) gave every run's copy a hidden class of its own (~0.4 KB each).
    const spec: JobSpec = {
      jobId: input.jobId,
      flow: input.flow,
      sessionId: input.sessionId,
      graph: input.graph,
      plan: input.plan,
      overrides: input.overrides,
      variables: input.variables,
      files: input.files,
      knowledge: input.knowledge,
      allowPrivateNetwork: input.allowPrivateNetwork,
      models: input.models,
      maxLoopIterations: input.maxLoopIterations,
      mcpStdioCommands: input.mcpStdioCommands,
      memory,
      logger: this.logger,
      emit,
    };
    const job = spawnJob(this.system, spec, controller, settle);
    // A run is over once the messages it stored are committed.
    const result = executed.then((execution): HostedResult | Promise<HostedResult> => {
      if (writes.length === 0) return execution;
      return Promise.all(writes).then(
        () => execution,
        (storeError: Error): HostedResult => ({ ...execution, storeError }),
      );
    });
    return { result, abort: () => dispatch<JobMsg>(job, { type: 'job.abort' }) };
  }

  close(): void {
    this.sessions.close();
    stop(this.system);
  }
}
