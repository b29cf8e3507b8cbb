/**
 * Requests by route: a counter by method, route and status, and a latency histogram by method and route. The
 * `route` label is the route's pattern in OpenAPI's form (`/api/v1/run/{flow_id_or_name}`), never the URL asked
 * for: ids in URLs would make a series per id, without bound. Requests no route answered share `unmatched`.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { toOpenApiPath } from '../openapi/path-template.js';
import type { CountedRequest, CountedRoute } from './metrics.js';

/** The `route` label of a request no route matched (404, 405, a CORS preflight). */
export const UNMATCHED = 'unmatched';

/**
 * Seconds. prom-client's defaults start at 5 ms, and an echo run answers in about 1 ms; the top buckets are for
 * long runs and streams (a run may take up to FLOWSVC_JOB_TIMEOUT_SECONDS, 300 by default).
 */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** Methods a client may send to any path; anything else is counted as `other` (the method is the client's text). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One (method, route) pair's children: prom-client hashes labels on each call, so they are looked up once. */
interface Series {
  latency: Histogram.Internal<'method' | 'route'>;
  byStatus: Map<number, Counter.Internal>;
  method: string;
  route: string;
}

export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  /** Keyed by the route object: one map hit per request, no label string built. */
  private readonly byRoute = new Map<CountedRoute, Series>();
  /** HEAD on a GET route, and unmatched requests, keyed by `method route`. */
  private readonly byName = new Map<string, Series>();

  constructor(register: Registry) {
    this.requests = new Counter({
      name: 'flowsvc_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [register],
    });
    this.latency = new Histogram({
      name: 'flowsvc_http_request_duration_seconds',
      help: 'Time from a request received to its reply handed to the socket (a stream: to its end), by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers: [register],
    });
  }

  done(request: CountedRequest, route: CountedRoute | undefined, status: number): void {
    const seconds = (performance.now() - request.started) / 1000;
    const series = this.seriesOf(request.method, route);
    series.latency.observe(seconds);
    let counter = series.byStatus.get(status);
    if (!counter) {
      counter = this.requests.labels(series.method, series.route, String(status));
      series.byStatus.set(status, counter);
    }
    counter.inc();
  }

  private seriesOf(method: string, route: CountedRoute | undefined): Series {
    if (route && route.method === method) {
      let series = this.byRoute.get(route);
      if (!series) this.byRoute.set(route, (series = this.newSeries(method, toOpenApiPath(route.path))));
      return series;
    }
    const label = KNOWN_METHODS.has(method) ? method : 'other';
    const pattern = route ? toOpenApiPath(route.path) : UNMATCHED;
    const key = `${label} ${pattern}`;
    let series = this.byName.get(key);
    if (!series) this.byName.set(key, (series = this.newSeries(label, pattern)));
    return series;
  }

  private newSeries(method: string, route: string): Series {
    return { latency: this.latency.labels(method, route), byStatus: new Map(), method, route };
  }
}
