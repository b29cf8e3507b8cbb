/** /api/v1/monitor/traces: a trace per run of the caller's flows, with a span per component (spec 2.12, 4.5). */
import { z } from 'zod';
import { TraceDetail, TraceFlowQuery, TraceList, TracesQuery } from '../../../protocol/trace.schema.js';
import { BoundedId } from '../../../protocol/limits.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { traceDetail, traceSummary } from '../../langflow/trace-response.js';
import type { Services } from '../../services/services.js';

const TAGS = ['Traces'];
const TraceId = z.object({ trace_id: BoundedId });

export function tracesRoutes(services: Services): Route[] {
  const { records } = services;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/monitor/traces',
      summary: "Traces of the caller's runs, newest first (filter by flow and session)",
      tags: TAGS,
      auth: 'user',
      query: TracesQuery,
      responses: { 200: { description: 'A page of traces', schema: TraceList } },
      handler: async ({ query, principal }) => {
        const page = await records.traces(principal!.userId, { flowId: query.flow_id, sessionId: query.session_id, page: query.page, size: query.size });
        return { traces: page.traces.map(traceSummary), total: page.total, pages: page.pages };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/monitor/traces',
      summary: 'Delete every trace of a flow',
      tags: TAGS,
      auth: 'user',
      query: TraceFlowQuery,
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ query, principal }) => {
        await records.deleteForFlow(principal!.userId, query.flow_id);
        return Reply.empty(204);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/monitor/traces/:trace_id',
      summary: 'One trace with its spans',
      tags: TAGS,
      auth: 'user',
      params: TraceId,
      responses: { 200: { description: 'The trace', schema: TraceDetail } },
      handler: async ({ params, principal }) => traceDetail(await records.trace(principal!.userId, params.trace_id)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/monitor/traces/:trace_id',
      summary: 'Delete one trace',
      tags: TAGS,
      auth: 'user',
      params: TraceId,
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ params, principal }) => {
        await records.deleteTrace(principal!.userId, params.trace_id);
        return Reply.empty(204);
      },
    }),
  ];
}
