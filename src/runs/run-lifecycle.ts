/**
 * The one run lifecycle. Every way to start a run goes through here: a run is created queued (background) or in
 * progress (sync, stream), executes on the actor host, times out, is cancelled (stop, client gone, shutdown), and
 * ends once, with its status and failure taken from one table. Its adapter is called at each step to log, record and
 * answer in its own protocol's shape. At start-up, runs left unfinished by a stopped process are recovered.
 */
import type { ActorHost } from '../../actors/actor-host.js';
import type { JobInput } from '../../actors/job.actor.js';
import type { Logger } from '../logger.js';
import { NO_METRICS, type ActiveRunCounts, type Metrics } from '../observability/metrics.js';
import type { RunWatcher } from './run-watch.js';
import { LiveRun } from './live-run.js';
import { LiveRuns } from './live-runs.js';
import { recoverUnfinished, type RecoveryCounts, type RecoverySource } from './recovery.js';
import type { RunResult, RunStart } from './run-adapter.js';
import { asError, type CancelReason, type RunFailure } from './run-failure.js';
import { hostedResult, notRun } from './run-result.js';
import { Deadlines } from './deadlines.js';
import { RunQueue, type JobQueue } from './run-queue.js';
import { emitterFor } from './run-emitter.js';
import type { EventLog } from './event-log.port.js';
import { LOCAL_RUNS, type FinalWrite, type RunSharing } from './run-sharing.js';
import type { RunsOptions } from './runs-options.js';
import { isTerminal, type RunStatus } from './run-status.js';

export type { RunsOptions };

export class Runs {
  private readonly live = new LiveRuns();
  private readonly queue: JobQueue<{ run: LiveRun<any>; job: JobInput }>;
  private readonly cancelRun = (run: LiveRun<any>, reason: CancelReason) => this.cancel(run, reason);
  private readonly deadlines: Deadlines<LiveRun<any>>;
  /** Set at shutdown: nothing more is recorded (runs cut off are recovered at the next start). */
  private closed = false;
  private readonly metrics: Pick<Metrics, 'runEnded'>;
  private readonly watcher: RunWatcher | undefined;
  private readonly sharing: RunSharing;

  constructor(
    private readonly host: ActorHost,
    private readonly logger: Logger,
    options: RunsOptions,
  ) {
    this.metrics = options.metrics ?? NO_METRICS;
    this.watcher = options.watcher;
    this.sharing = options.sharing ?? LOCAL_RUNS;
    this.queue = new RunQueue(options.concurrency, ({ run, job }) => this.execute(run, job));
    const timedOut: RunFailure = { kind: 'timed_out', timeoutMs: options.timeoutMs };
    this.deadlines = new Deadlines(options.timeoutMs, (run) => this.stop(run, timedOut));
  }

  /** Starts a run now (sync and streamed runs): it is in progress when this returns. */
  start<A>(start: RunStart<A>): LiveRun<A> {
    const run = this.admit(start, 'in_progress');
    void this.execute(run, start.job);
    return run;
  }

  /** Queues a background run, recorded first (`adapter.queued`, the caller answers once it is durable), run in turn. */
  async enqueue<A>(start: RunStart<A>): Promise<LiveRun<A>> {
    const run = this.admit(start, 'queued');
    try {
      await start.adapter.queued?.(run);
    } catch (error) {
      this.live.delete(run.id);
      throw error;
    }
    this.queue.push({ run, job: start.job });
    return run;
  }

  /** Starts a queued run claimed from the shared queue (its queued record exists): in progress when this returns. */
  startClaimed<A>(start: RunStart<A>): LiveRun<A> {
    const run = this.admit(start, 'queued');
    void this.execute(run, start.job);
    return run;
  }

  /**
   * Ends a run that will not execute here, through its adapter (recovered at start-up, stopped while queued for
   * another instance, taken over from a dead owner); `log` holds the entries it had, when it had any.
   */
  end<A>(start: Omit<RunStart<A>, 'job'>, status: 'queued' | 'in_progress', failure: RunFailure, log?: EventLog): LiveRun<A> {
    const spec = start.adapter.log;
    const run = new LiveRun(start, status, this.cancelRun, log ?? (spec?.shared ? this.sharing.log(start.id, spec) : undefined));
    this.live.add(run);
    void this.settle(run, notRun(failure));
    return run;
  }

  /** Aborts a run whose lease another instance took: it ends here, and its result is not recorded (the fence). */
  abandon(id: string): void {
    const run = this.live.get(id);
    if (run) this.stop(run, { kind: 'interrupted' });
  }

  /** A run this process is running or about to run. */
  find(id: string): LiveRun<unknown> | undefined {
    return this.live.get(id);
  }

  /** Runs queued and in progress now (a metrics scrape). */
  activeCounts = (): ActiveRunCounts => this.live.counts();

  /** Requeues or interrupts what a stopped process left unfinished; call once, at start-up. */
  recover(sources: readonly RecoverySource[]): Promise<RecoveryCounts> {
    return recoverUnfinished(sources, {
      requeue: (start, job) => this.queue.push({ run: this.admit(start, 'queued'), job }),
      end: (start, status) => this.end(start, status, { kind: 'interrupted' }).answer,
    });
  }

  /**
   * A graceful shutdown: queued runs no longer start (they stay queued in the store for the next start); resolves
   * once no run is in progress. Then `interrupt` at the deadline ends the runs still going, recorded interrupted.
   */
  drain(): Promise<void> {
    this.queue.pause();
    this.sharing.drain?.();
    return this.live.noneInProgress();
  }

  interrupt(): Promise<void> {
    const endings = this.live.inProgress().map((run) => {
      run.hosted?.abort();
      return this.settle(run, notRun({ kind: 'interrupted' }));
    });
    return Promise.all(endings).then(() => undefined);
  }

  /**
   * Shutdown, last step: every run still here ends cancelled for its waiting callers, and nothing more is recorded,
   * so their records stay queued or in progress and the next start recovers them.
   */
  close(): void {
    this.closed = true;
    this.queue.clear();
    this.deadlines.close();
    for (const run of this.live.all()) {
      if (isTerminal(run.status)) continue;
      run.hosted?.abort();
      void this.settle(run, notRun({ kind: 'cancelled', reason: 'shutdown' }));
    }
  }

  private admit<A>(start: Omit<RunStart<A>, 'job'>, status: RunStatus): LiveRun<A> {
    const spec = start.adapter.log;
    const run = new LiveRun(start, status, this.cancelRun, spec?.shared ? this.sharing.log(start.id, spec) : undefined);
    this.live.add(run);
    start.adapter.status?.(run);
    return run;
  }

  private execute<A>(run: LiveRun<A>, job: JobInput): Promise<void> | undefined {
    if (isTerminal(run.status)) return undefined;
    // Stopped before it started (while its queued record was being written).
    if (run.stoppedFor) return this.settle(run, notRun(run.stoppedFor));
    const { adapter } = run;
    if (run.status === 'queued') {
      run.moveTo('in_progress');
      adapter.status?.(run);
      // A queued run is one a restart runs again, so its start is durable before it runs: were it to kill the
      // process, its record says in progress and the next start ends it as interrupted, rather than running it
      // again at every start (a poison job). Runs started at once have no queued record and do not wait.
      const recorded = adapter.started?.(run);
      if (recorded) {
        return recorded.then(
          () => (run.stoppedFor ? this.settle(run, notRun(run.stoppedFor)) : this.launch(run, job)),
          (error: unknown) => this.settle(run, notRun({ kind: 'store', error: asError(error) })),
        );
      }
      return this.launch(run, job);
    }
    adapter.started?.(run)?.catch((err: unknown) => this.logger.error({ err, runId: run.id }, 'run start could not be recorded'));
    return this.launch(run, job);
  }

  private launch<A>(run: LiveRun<A>, job: JobInput): Promise<void> | undefined {
    if (this.closed) return undefined;
    run.watch = this.watcher?.begin(run, job);
    run.hosted = this.host.run(job, emitterFor(run));
    this.deadlines.add(run.id, run);
    return run.hosted.result.then(
      (hosted) => this.settle(run, hostedResult(hosted, run.stoppedFor)),
      (error: unknown) => this.settle(run, notRun({ kind: 'crash', error: asError(error) })),
    );
  }

  private cancel(run: LiveRun<any>, reason: CancelReason): void {
    const failure: RunFailure = { kind: 'cancelled', reason };
    if (run.status === 'queued' && this.queue.remove((item) => item.run === run)) {
      void this.settle(run, notRun(failure));
      return;
    }
    this.stop(run, failure);
  }

  /** Aborts a run for `failure` (once); one not started yet ends as it starts. */
  private stop(run: LiveRun<any>, failure: RunFailure): void {
    if (isTerminal(run.status) || run.stoppedFor) return;
    run.stoppedFor = failure;
    run.hosted?.abort();
  }

  /**
   * The one end of every run: its status, its answer, its record, then its log ends. Not an async function: a run
   * with nothing to record (a v1 run) ends without a promise of its own.
   */
  private settle<A>(run: LiveRun<A>, result: RunResult): Promise<void> | undefined {
    if (isTerminal(run.status)) return undefined;
    this.deadlines.remove(run.id);
    run.moveTo(result.status);
    this.metrics.runEnded(result.status);
    run.watch?.end(result);
    const { adapter } = run;
    const recording = adapter.persist && !this.closed;
    if (recording) run.log?.holdShared?.();
    let answer: A;
    try {
      answer = adapter.settle(run, result);
    } catch (error) {
      this.logger.error({ err: error, runId: run.id }, 'run answer could not be built');
      this.finish(run);
      // A run nobody waits for (a webhook's) must not fail the process with an unhandled rejection.
      run.answer.catch(() => undefined);
      run.reject(error);
      return undefined;
    }
    if (recording) return this.persist(run, answer);
    this.finish(run);
    run.resolve(answer);
    return undefined;
  }

  /** Records the answer, then gives it; not recorded (failed, or the run's lease went to another instance), the answer stands. */
  private async persist<A>(run: LiveRun<A>, answer: A): Promise<void> {
    const write: FinalWrite = async (fence) => (await run.adapter.persist!(run, answer, fence)) !== false;
    const recorded = await this.sharing.record(run.id, write).catch((err: unknown) => void this.logger.error({ err, runId: run.id }, 'run result could not be recorded'));
    if (recorded === false) this.logger.warn({ runId: run.id }, 'run ended after another instance took it over: its result is not recorded');
    // Other instances hear how the run ended only once it is recorded; not recorded, whoever ends it says so.
    run.log?.releaseShared?.(recorded === true);
    this.finish(run);
    run.resolve(answer);
  }

  private finish(run: LiveRun<any>): void {
    this.live.delete(run.id);
    run.log?.end();
  }
}
