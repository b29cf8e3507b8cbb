/**
 * The build API (spec 2.10; Langflow's `api/v1/chat.py`): start a build (the editor's run), read its events,
 * cancel it. Every build is a run of the one lifecycle (src/services/builds/); public builds are in
 * build-public.routes.ts.
 */
import { z } from 'zod';
import { BuildEvent, BuildEventsQuery, BuildFlowParams, BuildJobResponse, BuildQuery, BuildRequest, CancelFlowResponse, JobIdParams } from '../../../protocol/build.schema.js';
import { ValidationErrorBody } from '../../../protocol/common.schema.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { NotFoundError } from '../../errors/index.js';
import type { BuildJobs, BuildSpec } from '../../services/builds/build-jobs.js';
import type { Services } from '../../services/services.js';
import { headerVariables } from '../run/global-vars.js';
import { cancelReply, eventsReply, ndjsonStream } from './build-replies.js';

export const BUILD_TAGS = ['Chat'];

/** What the build routes (editor and public) share: their input schemas and documented replies. */
export const BUILD_ROUTE = {
  tags: BUILD_TAGS,
  params: BuildFlowParams,
  query: BuildQuery,
  body: BuildRequest.optional(),
  responses: {
    200: { description: 'The job id (polling, streaming) or the events as NDJSON (direct)', schema: BuildJobResponse },
    404: { description: 'Unknown flow' },
    422: { description: 'Validation error', schema: ValidationErrorBody },
  },
};
export const EVENTS_ROUTE = {
  tags: BUILD_TAGS,
  params: JobIdParams,
  query: BuildEventsQuery,
  responses: { 200: { description: "The build's events (NDJSON, or a JSON array with stream=false)", schema: z.array(BuildEvent) }, 404: { description: 'Unknown job' } },
};
export const CANCEL_ROUTE = {
  tags: BUILD_TAGS,
  params: JobIdParams,
  responses: { 200: { description: 'Cancelled (a build already finished counts as cancelled)', schema: CancelFlowResponse }, 404: { description: 'Unknown job' } },
};

/** Starts the build; `direct` answers its events on this request (the client leaving cancels it), others its id. */
export function startedReply(builds: BuildJobs, spec: BuildSpec): Reply {
  const job = builds.start(spec);
  if (spec.query.event_delivery !== 'direct') return Reply.json({ job_id: job.id });
  return ndjsonStream((watcher) => builds.watch(job, 0, watcher), () => job.run.cancel('client_gone'));
}

export function flowBuildRoutes({ builds, flows }: Services): Route[] {
  return [
    defineRoute({
      ...BUILD_ROUTE,
      method: 'POST',
      path: '/api/v1/build/:flow_id/flow',
      summary: 'Build (run) a flow for the editor; its events are read from /api/v1/build/{job_id}/events',
      auth: 'user',
      async handler({ params, query, body, headers, principal }) {
        const userId = principal!.userId;
        const flow = await flows.findRunnable(userId, params.flow_id);
        if (!flow) throw new NotFoundError(`Flow with id ${params.flow_id} not found`);
        return startedReply(builds, { userId, flow, body: body ?? {}, query, requestVariables: headerVariables(headers) });
      },
    }),
    defineRoute({
      ...EVENTS_ROUTE,
      method: 'GET',
      path: '/api/v1/build/:job_id/events',
      summary: "A build's events: followed as NDJSON (streaming), since the last poll (polling), or all so far as JSON (stream=false)",
      auth: 'user',
      handler: (request) => eventsReply(builds, builds.find(request.principal!.userId, request.params.job_id), request.query, request),
    }),
    defineRoute({
      ...CANCEL_ROUTE,
      method: 'POST',
      path: '/api/v1/build/:job_id/cancel',
      summary: 'Cancel a build: the run stops (its model calls are aborted)',
      auth: 'user',
      handler: ({ params, principal }) => cancelReply(builds, builds.find(principal!.userId, params.job_id)),
    }),
  ];
}
