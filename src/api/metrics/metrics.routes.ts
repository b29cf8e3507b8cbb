/**
 * GET /metrics: the service's metrics in Prometheus's text format, served when FLOWSVC_PROMETHEUS_ENABLED is on.
 * Open, as Langflow's is: scrapers carry no API key. Hidden from /openapi.json: it is for operators, not part of the
 * Langflow API that clients are written against.
 */
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';

export function metricsRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/metrics',
      summary: 'Metrics in Prometheus text format: requests, runs, streams, store commits, the Node process',
      tags: ['Metrics'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'The metrics', contentType: 'text/plain; version=0.0.4; charset=utf-8' } },
      async handler() {
        const { contentType, text } = await services.metrics.scrape();
        return Reply.bytes(text, contentType);
      },
    }),
  ];
}
