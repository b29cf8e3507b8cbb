/**
 * LMDB commit latency, from a probe write every few seconds timed from put to commit.
 *
 * Why a probe rather than timing every write: the store issues its writes from some forty places in ten
 * repositories, many inside transaction callbacks whose puts are not commits of their own; timing each would wrap
 * every repository write and cost each one a clock read and a callback. A probe costs one small write per
 * interval, off the request path. It measures what the writes of that moment see: lmdb gathers the writes of an
 * event-loop turn into one commit and commits one batch at a time, so the probe waits behind the batches queued
 * ahead of it and commits with whatever else is being written, its flush included (FLOWSVC_STORE_SYNC).
 */
import { Histogram, type Registry } from 'prom-client';
import type { Store } from '../store/port.js';

/** Often enough that a scrape every 15 s or more sees a few commits; one small write per interval. */
const PROBE_INTERVAL_MS = 5_000;
const PROBE_KEY = 'metrics.commit_probe';
/** Seconds: a flush of a local SSD takes about a millisecond; a busy or networked disk, far longer. */
const COMMIT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export class StoreCommitProbe {
  private readonly commits: Histogram;
  private readonly timer: NodeJS.Timeout;
  private probing: Promise<void> | undefined;
  private probes = 0;
  private closed = false;

  constructor(
    register: Registry,
    private readonly store: Store,
  ) {
    this.commits = new Histogram({
      name: 'flowsvc_store_commit_seconds',
      help: `Time from a store write to its commit (a probe write every ${PROBE_INTERVAL_MS / 1000} s, committed with the writes of that moment)`,
      buckets: COMMIT_BUCKETS,
      registers: [register],
    });
    // The first probe at once, so the first scrape already has a figure; the timer does not keep the process up.
    this.probe();
    this.timer = setInterval(() => this.probe(), PROBE_INTERVAL_MS).unref();
  }

  /** Resolves once a probe in flight has committed and been counted, so a scrape includes it. */
  settled(): Promise<void> {
    return this.probing ?? Promise.resolve();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  private probe(): void {
    // A commit slower than the interval must not pile probes up behind it.
    if (this.closed || this.probing) return;
    const started = performance.now();
    this.probing = this.store.settings
      .put(PROBE_KEY, String(++this.probes))
      .then(
        () => this.commits.observe((performance.now() - started) / 1000),
        // A failed commit is the store's to report (the readiness check says so); the probe only goes without.
        () => undefined,
      )
      .finally(() => (this.probing = undefined));
  }
}
