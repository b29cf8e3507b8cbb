/**
 * The v2 workflow API (spec 4.1): run (sync, streamed or background), job status with SSE resume, stop.
 * src/api/routes.ts leaves these routes out when FLOWSVC_DEVELOPER_API_ENABLED is false, so they answer 404.
 */
import { z } from 'zod';
import { ValidationErrorBody } from '../../../protocol/common.schema.js';
import {
  WorkflowJobResponse,
  WorkflowRequest,
  WorkflowResponse,
  WorkflowStatusQuery,
  WorkflowStopRequest,
  WorkflowStopResponse,
} from '../../../protocol/workflow.schema.js';
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError, TimeoutError, withCode } from '../../errors/index.js';
import { headerVariables } from '../run/global-vars.js';
import { jobResponse } from '../../services/jobs/workflow-reply.js';
import { sseReply } from './sse.js';

const TAGS = ['Workflow'];
const SSE = { description: 'With stream=true: the job events as server-sent events', contentType: 'text/event-stream' };

export function workflowsRoutes(services: Services): Route[] {
  const { jobs, logger } = services;

  /** Deprecated header globals still count for one release; each request carrying them is logged. */
  function legacyGlobals(headers: Readonly<Record<string, string>>): Record<string, string> {
    const globals = headerVariables(headers);
    if (Object.keys(globals).length > 0) logger.warn({ names: Object.keys(globals) }, 'X-*-GLOBAL-VAR-* headers on /api/v2/workflows are deprecated: send `globals` in the body');
    return globals;
  }

  return [
    defineRoute({
      method: 'POST',
      path: '/api/v2/workflows',
      summary: 'Run a workflow: synchronously, streamed as server-sent events, or as a background job',
      tags: TAGS,
      auth: 'api-key-v2',
      body: WorkflowRequest,
      responses: {
        200: { description: 'The run reply (background=false) or the job (background=true)', schema: z.union([WorkflowResponse, WorkflowJobResponse]) },
        422: { description: 'Validation error', schema: ValidationErrorBody },
      },
      async handler(request) {
        const { body, headers, principal } = request;
        const userId = principal!.userId;
        const globals = legacyGlobals(headers);
        if (body.background) return jobResponse(await jobs.submit(userId, body, globals, 'background'));
        const run = await jobs.submit(userId, body, globals, body.stream ? 'stream' : 'sync');
        request.onClientGone(() => run.cancel('client_gone'));
        if (body.stream) return sseReply((watcher) => run.log!.watch(0, watcher));
        const { record, replyJson } = await run.answer;
        // A timeout is the one failure a sync caller gets as an HTTP error (spec 7); the others are in the reply.
        if (record.status === 'timed_out') throw withCode(new TimeoutError(record.errors[0]?.error ?? 'Execution timeout'), 'EXECUTION_TIMEOUT');
        // The WorkflowResponse as the job encoded it once (its record and log hold the same text).
        return Reply.bytes(replyJson, 'application/json');
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v2/workflows',
      summary: "A job's status and, once finished, its run reply; stream=true follows its events (resume with sequence_id or Last-Event-ID)",
      tags: TAGS,
      auth: 'api-key-v2',
      query: WorkflowStatusQuery,
      responses: {
        200: { description: 'The job (while queued or running) or its run reply', schema: z.union([WorkflowResponse, WorkflowJobResponse]) },
        404: { description: 'Unknown job' },
      },
      async handler({ query, headers, principal }) {
        if (!query.job_id) throw withCode(new BadRequestError('Job ID must be provided'), 'MISSING_PARAMETER');
        const userId = principal!.userId;
        const jobId = query.job_id;
        const view = await jobs.view(userId, jobId);
        if (!query.stream) return view.kind === 'job' ? jobResponse(view.record) : view.response;
        const after = query.sequence_id ?? lastEventId(headers['last-event-id']);
        return sseReply((watcher) => jobs.watch(userId, jobId, after, watcher));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v2/workflows/stop',
      summary: 'Stop a queued or running job',
      tags: TAGS,
      auth: 'api-key-v2',
      body: WorkflowStopRequest,
      responses: { 200: { description: 'What happened to the job', schema: WorkflowStopResponse }, 404: { description: 'Unknown job' } },
      async handler({ body, principal }) {
        return Reply.json({ job_id: body.job_id, message: await jobs.stop(principal!.userId, body.job_id) });
      },
    }),
  ];
}

/** `Last-Event-ID` as a sequence number; anything else starts from the beginning. */
function lastEventId(header: string | undefined): number {
  const n = header === undefined ? NaN : Number(header);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}
