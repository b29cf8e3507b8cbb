/**
 * This instance's side of the shared job queue (PostgreSQL leases, src/store/job-leases.port.ts): it claims queued
 * jobs while it has free slots, holds a lease on each job it runs and renews them on a heartbeat, hears stops,
 * sweeps the leases of instances that died, and lets a run record its end only while its lease is still its own: the
 * record and the lease's end are one transaction, so an instance killed at any moment never leaves a job whose lease
 * ended unfinished. Jobs stranded all the same (a sweeper or a stop killed before it wrote the end) are swept again.
 *
 * What wakes it: a `wake` hint on the bus after a job is committed (the table is the truth, the hint is only a
 * hint), its own runs ending, and a poll as the fallback for lost hints. What stops a run: a `cancel` hint at once,
 * or the stop flag its next heartbeat reads.
 */
import type { Logger } from '../logger.js';
import type { FinalWrite } from '../runs/run-sharing.js';
import type { JobLeaseRepo, Lease } from '../store/job-leases.port.js';
import type { EventBus } from './event-bus.port.js';
import { faultPoint } from './fault-point.js';

/** A final record that cannot be written is tried again this many times, waiting longer each time (about 30 s). */
const RECORD_ATTEMPTS = 8;
const RECORD_RETRY_MS = 1000;

export interface LeasedJobsOptions {
  leases: JobLeaseRepo;
  bus: EventBus;
  logger: Logger;
  /** This process's name in the lease rows: unique per start. */
  instanceId: string;
  /** Background jobs this instance runs at once (`FLOWSVC_JOB_CONCURRENCY`). */
  concurrency: number;
  /**
   * How long a lease holds without a heartbeat; heartbeats come three times as often. Also the sweep's grace: a job
   * whose lease ended, or that has none, is swept once its record stayed unfinished this long.
   */
  leaseMs: number;
  /** How often idle instances look for queued jobs without a hint. */
  pollMs: number;
}

/** What the jobs service does with the queue's decisions. */
export interface LeasedJobsHandlers {
  /** Runs a claimed job here; resolves once it has ended (recorded or not), however it ended. */
  runClaimed(lease: Lease): Promise<void>;
  /** Ends a job whose owner's lease expired: recorded interrupted by this instance. */
  takeOver(id: string): Promise<void>;
  /** Stops a job this instance runs (a stop asked on another instance). */
  stopHere(id: string): void;
  /** Ends a job this instance runs whose lease went to another (this one was paused or cut off). */
  abandon(id: string): void;
}

interface Held {
  epoch: number;
  written: boolean;
  owning?: Promise<void>;
  unleased?: boolean;
  lost?: boolean;
}

export class LeasedJobs {
  /**
   * The jobs this instance holds a lease on, with the epoch it holds; `written`: the lease row is committed;
   * `owning`: its write, for a job started at once (its end may come first, and must wait for it), `unleased` if that
   * write failed; `lost`: another instance took the job over, so this one must not record its end.
   */
  private readonly held = new Map<string, Held>();
  private running = 0;
  private claiming = false;
  /** A wake came while a claim was in flight: that claim may have read the table before the job was committed. */
  private wokenMeanwhile = false;
  private handlers?: LeasedJobsHandlers;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: (() => void)[] = [];
  private closed = false;

  constructor(private readonly options: LeasedJobsOptions) {}

  /** Starts claiming, heartbeats and sweeping. */
  start(handlers: LeasedJobsHandlers): void {
    this.handlers = handlers;
    const { bus, leaseMs, pollMs } = this.options;
    this.unsubscribe.push(bus.subscribe('wake', () => this.claim()));
    this.unsubscribe.push(bus.subscribe('cancel', (id) => this.held.has(id) && handlers.stopHere(id)));
    this.timers.push(setInterval(() => void this.heartbeat(), Math.max(50, Math.floor(leaseMs / 3))));
    this.timers.push(setInterval(() => this.claim(), pollMs));
    for (const timer of this.timers) timer.unref();
    this.claim();
  }

  /**
   * A background job whose queued record is committed: run here at once when this instance has a free slot (leased
   * to it, no claim and no wake needed), else queued for every instance and the others woken.
   */
  async enqueue(id: string, runHere: () => Promise<void>): Promise<void> {
    const { leases, instanceId, leaseMs, bus } = this.options;
    faultPoint('queue-entry');
    if (this.closed || this.running >= this.options.concurrency) {
      await leases.enqueue(id);
      bus.publish('wake', id);
      return;
    }
    this.running++;
    const held = { epoch: 1, written: false };
    this.held.set(id, held);
    try {
      await leases.own(id, instanceId, leaseMs);
    } catch (error) {
      this.held.delete(id);
      this.running--;
      throw error;
    }
    held.written = true;
    this.ran(id, runHere());
  }

  /** A job this instance started at once (sync, streamed) is leased to it; the run does not wait for the lease. */
  own(id: string): void {
    const held: Held = { epoch: 1, written: false };
    this.held.set(id, held);
    held.owning = this.options.leases.own(id, this.options.instanceId, this.options.leaseMs).then(
      () => void (held.written = true),
      (err: unknown) => {
        // Its end is then written unfenced: a finished record is final, so it cannot clash with a sweep's.
        held.unleased = true;
        this.options.logger.warn({ err, jobId: id }, 'the lease of a job started here could not be written');
      },
    );
  }

  /**
   * Records a job's end with `write`: unfenced for jobs this instance holds no lease on (taken over, stopped while
   * queued), else fenced by its lease, which the write ends in the same transaction if it is still this instance's
   * (compare-and-set); false when it was not, or the job had ended already. A write that fails leaves the lease
   * running, so it is tried again through a database restart; given up, the lease (no longer renewed) expires and
   * another instance ends the job interrupted.
   */
  async record(id: string, write: FinalWrite): Promise<boolean> {
    const held = this.held.get(id);
    this.held.delete(id);
    if (held?.lost) return false;
    await held?.owning;
    const fence = held && !held.unleased ? { id, epoch: held.epoch, owner: this.options.instanceId } : undefined;
    if (fence) faultPoint('final-record');
    for (let attempt = 1; ; attempt++) {
      try {
        return await write(fence);
      } catch (err) {
        if (attempt >= RECORD_ATTEMPTS || this.closed) throw err;
        this.options.logger.warn({ err, jobId: id, attempt }, 'the end of a job could not be recorded; trying again');
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS * attempt));
      }
    }
  }

  /** Ends the lease of a job claimed here that has nothing left to record (its record says it ended, or is gone). */
  async release(id: string): Promise<void> {
    const held = this.held.get(id);
    this.held.delete(id);
    if (held && !held.lost) await this.options.leases.end({ id, epoch: held.epoch }, this.options.instanceId);
  }

  /** Stops claiming; runs here go on to their end (their leases are no longer renewed). */
  close(): void {
    this.closed = true;
    this.timers.forEach(clearInterval);
    this.unsubscribe.forEach((off) => off());
  }

  private claim(): void {
    if (this.claiming) this.wokenMeanwhile = true;
    if (this.claiming || this.closed || !this.handlers) return;
    this.wokenMeanwhile = false;
    const free = this.options.concurrency - this.running;
    if (free <= 0) return;
    this.claiming = true;
    const { leases, instanceId, leaseMs, logger } = this.options;
    leases.claim(instanceId, free, leaseMs).then(
      (claimed) => {
        this.claiming = false;
        for (const lease of claimed) this.run(lease);
        // A full claim may have left more behind, and a wake during the claim a job it did not see.
        if (claimed.length === free || this.wokenMeanwhile) this.claim();
      },
      (err: unknown) => {
        this.claiming = false;
        logger.warn({ err }, 'queued jobs could not be claimed; the next poll tries again');
      },
    );
  }

  private run(lease: Lease): void {
    this.held.set(lease.id, { epoch: lease.epoch, written: true });
    this.running++;
    this.ran(lease.id, this.handlers!.runClaimed(lease));
  }

  /** Frees the job's slot once it has ended, and looks for more. */
  private ran(id: string, running: Promise<void>): void {
    running
      .catch((err: unknown) => this.options.logger.error({ err, jobId: id }, 'a claimed job could not run'))
      .finally(() => {
        this.running--;
        this.claim();
      });
  }

  /** Renews this instance's leases, hears stop flags and lost leases, and sweeps expired leases and stranded jobs. */
  private async heartbeat(): Promise<void> {
    const { leases, instanceId, leaseMs, logger } = this.options;
    const ids = [...this.held].filter(([, held]) => held.written && !held.lost).map(([id]) => id);
    try {
      const kept = await leases.renew(instanceId, ids, leaseMs);
      const still = new Set(kept.map((lease) => lease.id));
      for (const lease of kept) if (lease.stop) this.handlers?.stopHere(lease.id);
      for (const id of ids) {
        // Ended here meanwhile (its end is being recorded), or no longer this instance's.
        const held = this.held.get(id);
        if (still.has(id) || !held) continue;
        held.lost = true;
        logger.warn({ jobId: id }, 'the lease of a job running here expired and another instance took it over');
        this.handlers?.abandon(id);
      }
      for (const id of await leases.sweep(leaseMs)) {
        faultPoint('after-sweep');
        await this.handlers?.takeOver(id);
      }
    } catch (err) {
      logger.warn({ err }, 'job leases could not be renewed; the next heartbeat tries again');
    }
  }
}
