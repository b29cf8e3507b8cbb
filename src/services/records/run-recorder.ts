/**
 * Records every run that executes (a RunWatcher: entry points do nothing for it). On the run path it does nothing
 * (when each vertex ended comes with the result); the traces of the runs that ended in a turn are prepared by the store
 * at its end (after their replies): LMDB writes each one's row straight from the run (trace-row-writer.ts) into the
 * rows it gathers (trace-page-writer.ts), PostgreSQL takes its object form.
 * So nothing of a run (its job, its results, the run itself, its trace's objects) outlives its turn: held through the
 * gathering below, a run kept 3.9 kB alive beyond its trace's 1 kB (real echo runs), for young-generation GCs to copy.
 * The prepared traces gather for up to 50 ms (under load a turn ends one or two runs, and each write has a cost of its
 * own: the retention entry, the pages it dirties, the promises), then are written when the store is about to commit the
 * writes of the moment (or a turn later when nothing else is written), every trace of the moment in one go: plain
 * puts in the commit of the messages and jobs of that moment, not a commit of their own. Nothing here is awaited by a
 * reply; reads wait for `settled()`, so a caller who got an answer then reads the records sees its run.
 */
import type { JobInput } from '../../../actors/job.actor.js';
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import type { Logger } from '../../logger.js';
import type { RunResult } from '../../runs/run-adapter.js';
import type { RunWatch, RunWatcher, WatchedRun } from '../../runs/run-watch.js';
import type { MsgpackWriter } from '../../store/msgpack-writer.js';
import type { PreparedTrace, RunRecordRepo, TraceSource } from '../../store/port.js';
import { traceOf } from './trace-of.js';
import { TimingWatch } from './timing-watch.js';
import { writeTraceRow } from './trace-row-writer.js';

/**
 * One run being recorded, then, once it ended, the source its store writes its trace from (its row straight from the
 * run, or the trace as an object). A class: one small object per run, no closures.
 */
class RecordingWatch extends TimingWatch implements TraceSource {
  result: RunResult | undefined;
  endedAt = 0;

  constructor(
    private readonly recorder: RunRecorder,
    run: WatchedRun,
    job: JobInput,
  ) {
    super(run, job);
  }

  get id(): string {
    return this.run.id;
  }
  get userId(): string {
    return this.run.userId;
  }
  get flowId(): string {
    return this.run.flowId;
  }
  get sessionId(): string {
    return this.job.sessionId;
  }

  protected ended(result: RunResult): void {
    this.result = result;
    this.endedAt = Date.now();
    this.recorder.ended(this);
  }

  writeRow(out: MsgpackWriter): number {
    return writeTraceRow(out, this.job, this, this.result!, this.endedAt);
  }

  record(): TraceRecord {
    return traceOf(this.run, this.job, this, this.result!, this.endedAt);
  }
}

/**
 * How long the traces of ended runs gather before they are written, and how many make them due sooner (a full LMDB
 * page, trace-pages.ts: what a burst holds in memory stays bounded). A write costs its store more than its bytes: in
 * LMDB each dirties the pages on the paths to its page and its retention entry, one per write whatever its size. With
 * echo runs under load, traces added 3.3 kB written to disk per run when gathered for 10 ms, 1.6 kB for 50 and 0.8 kB
 * for 200, where the row is 351 bytes (pairs of services loaded as the records bench loads them, in one run).
 */
export const GATHER_MS = 50;
export const GATHER_MAX = 200;

export class RunRecorder implements RunWatcher {
  /** Runs ended in this turn, their traces not built yet. */
  private ending: RecordingWatch[] = [];
  private building: NodeJS.Immediate | undefined;
  private queue: PreparedTrace[] = [];
  private gathering: NodeJS.Timeout | undefined;
  /** Gathered long enough: the store's next commit takes the queue. */
  private due = false;
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly repo: RunRecordRepo,
    /** When records written now may be removed (epoch ms). */
    private readonly expiresAt: () => number,
    private readonly logger: Logger,
  ) {
    repo.beforeCommit?.(() => this.flushIfDue());
  }

  begin(run: WatchedRun, job: JobInput): RunWatch {
    return new RecordingWatch(this, run, job);
  }

  ended(watch: RecordingWatch): void {
    this.ending.push(watch);
    this.building ??= setImmediate(buildOf, this);
  }

  /** The traces of the runs ended in this turn, prepared and queued to gather; the runs themselves are let go. */
  build(): void {
    if (this.building) clearImmediate(this.building);
    this.building = undefined;
    const ended = this.ending;
    if (ended.length === 0) return;
    this.ending = [];
    for (const watch of ended) {
      try {
        this.queue.push(this.repo.prepare(watch));
      } catch (err) {
        this.logger.error({ err, runId: watch.run.id }, 'run records could not be built');
      }
    }
    if (this.queue.length >= GATHER_MAX) this.gathered();
    // Unref'd: a process with nothing else to do does not wait for it (close() writes what is queued).
    else this.gathering ??= setTimeout(gatheredOf, GATHER_MS, this).unref();
  }

  /** Gathered long enough: written in the store's next commit, or the turn after this one if none comes first. */
  gathered(): void {
    if (this.gathering) clearTimeout(this.gathering);
    this.gathering = undefined;
    this.due = true;
    setImmediate(flushOf, this);
  }

  flushIfDue(): void {
    if (this.due) this.flush();
  }

  /** Writes every trace queued (and those of runs ended this turn): the puts are issued together, in one turn. */
  flush(): void {
    this.due = false;
    this.build();
    const traces = this.queue;
    if (traces.length === 0) return;
    this.queue = [];
    const written = this.repo.put(traces, this.expiresAt()).catch((err: unknown) => this.logger.error({ err }, 'run records could not be written'));
    this.writing.add(written);
    void written.finally(() => this.writing.delete(written));
  }

  /** Resolves once every run that ended so far is written (or failed to be). */
  async settled(): Promise<void> {
    while (this.ending.length > 0 || this.queue.length > 0 || this.writing.size > 0) {
      this.flush();
      await Promise.all(this.writing);
    }
  }
}

// Shared functions for the timer and the turn (they pass the recorder), not a bound closure per run.
const gatheredOf = (recorder: RunRecorder) => recorder.gathered();
const flushOf = (recorder: RunRecorder) => recorder.flushIfDue();
const buildOf = (recorder: RunRecorder) => recorder.build();
