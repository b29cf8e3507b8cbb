/**
 * The Metrics of a service with FLOWSVC_PROMETHEUS_ENABLED on, on prom-client. Each service has a registry of its
 * own rather than prom-client's global one: tests start many services in one process, and each must expose only
 * its own figures (and registering a metric name twice in one registry throws).
 */
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { TerminalStatus } from '../runs/run-status.js';
import type { Store } from '../store/port.js';
import { HttpMetrics } from './http-metrics.js';
import type { ActiveRuns, CountedRequest, CountedRoute, Exposition, Metrics } from './metrics.js';
import { RunMetrics } from './run-metrics.js';
import { StoreCommitProbe } from './store-commit-probe.js';

export class PrometheusMetrics implements Metrics {
  private readonly register = new Registry();
  private readonly http: HttpMetrics;
  private readonly runs: RunMetrics;
  private readonly openStreams: Gauge;
  private readonly commits: StoreCommitProbe;

  constructor(store: Store) {
    // Node's process metrics: CPU, memory, heap, GC, handles, and event-loop lag (nodejs_eventloop_lag_seconds).
    collectDefaultMetrics({ register: this.register });
    this.http = new HttpMetrics(this.register);
    this.runs = new RunMetrics(this.register);
    this.openStreams = new Gauge({
      name: 'flowsvc_open_streams',
      help: 'Streamed replies (server-sent events of runs, jobs and responses) open now',
      registers: [this.register],
    });
    this.commits = new StoreCommitProbe(this.register, store);
  }

  requestDone(request: CountedRequest, route: CountedRoute | undefined, status: number): void {
    this.http.done(request, route, status);
  }

  streamOpened(): void {
    this.openStreams.inc();
  }

  streamClosed(): void {
    this.openStreams.dec();
  }

  runEnded(status: TerminalStatus): void {
    this.runs.runEnded(status);
  }

  watchRuns(runs: ActiveRuns): void {
    this.runs.watch(runs);
  }

  async scrape(): Promise<Exposition> {
    await this.commits.settled();
    return { contentType: this.register.contentType, text: await this.register.metrics() };
  }

  close(): void {
    this.commits.close();
  }
}
