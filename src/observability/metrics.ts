/**
 * What the service counts for GET /metrics, as one interface with two implementations: Prometheus's when
 * FLOWSVC_PROMETHEUS_ENABLED is on (prometheus-metrics.ts), and NO_METRICS when it is off, whose methods do
 * nothing, so the request path then pays one empty call: no label lookup, no clock read, and prom-client is not
 * even loaded.
 */
import type { TerminalStatus } from '../runs/run-status.js';
import type { Store } from '../store/port.js';

/**
 * What a request is counted by: its method and when it began. The edge's exchange is one; named here by shape, so
 * that what counts (the run lifecycle too) does not depend on the edge.
 */
export interface CountedRequest {
  readonly method: string;
  readonly started: number;
}

/** The route that answered: its method and its path pattern (the label, never the raw URL). */
export interface CountedRoute {
  readonly method: string;
  readonly path: string;
}

/** Runs in this process that have not ended, by status. */
export interface ActiveRunCounts {
  queued: number;
  in_progress: number;
}

/** Where the runs gauge is read from, when scraped (the run lifecycle). */
export interface ActiveRuns {
  activeCounts(): ActiveRunCounts;
}

/** A scrape's answer: Prometheus's text exposition and its content type. */
export interface Exposition {
  contentType: string;
  text: string;
}

export interface Metrics {
  /**
   * A reply was handed to the socket (a streamed one: once it ended). `route` is the route that answered, or
   * undefined when none matched (404, 405, a CORS preflight).
   */
  requestDone(request: CountedRequest, route: CountedRoute | undefined, status: number): void;
  /** A streamed reply (server-sent events) started; `streamClosed` follows once, when it ends for any reason. */
  streamOpened(): void;
  streamClosed(): void;
  /** A run reached its final status (each run once). */
  runEnded(status: TerminalStatus): void;
  /** Reads the runs gauge from `runs` at each scrape. */
  watchRuns(runs: ActiveRuns): void;
  scrape(): Promise<Exposition>;
  /** Stops its timers; called before the store closes, so no probe writes to a closed store. */
  close(): void;
}

const nothing = () => {};

/** Metrics off: every call is a no-op; /metrics is not served, so nothing scrapes it. */
export const NO_METRICS: Metrics = {
  requestDone: nothing,
  streamOpened: nothing,
  streamClosed: nothing,
  runEnded: nothing,
  watchRuns: nothing,
  scrape: () => Promise.reject(new Error('metrics are off (FLOWSVC_PROMETHEUS_ENABLED)')),
  close: nothing,
};

/**
 * The service's metrics: Prometheus's when `enabled`, else NO_METRICS. The Prometheus implementation is imported
 * only when enabled, so a service with metrics off never loads prom-client.
 */
export async function createMetrics(enabled: boolean, store: Store): Promise<Metrics> {
  if (!enabled) return NO_METRICS;
  const { PrometheusMetrics } = await import('./prometheus-metrics.js');
  return new PrometheusMetrics(store);
}
