/**
 * The build API (spec 2.10; Langflow's `api/v1/chat.py`): start a build (the editor's run), read its events,
 * cancel it; public flows build without a key. Every build is a run of the one lifecycle (src/services/builds/).
 */
import { z } from 'zod';
import { BuildEvent, BuildEventsQuery, BuildFlowParams, BuildJobResponse, BuildQuery, BuildRequest, CancelFlowResponse, JobIdParams } from '../../../protocol/build.schema.js';
import { ValidationErrorBody } from '../../../protocol/common.schema.js';
import { readCookie } from '../../edge/cookie.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors/index.js';
import { uuid5 } from '../../ids/uuid5.js';
import type { BuildJob, BuildSpec } from '../../services/builds/build-jobs.js';
import type { Services } from '../../services/services.js';
import { headerVariables } from '../run/global-vars.js';
import { eventsJson, ndjsonBatch, ndjsonStream } from './build-replies.js';

const TAGS = ['Chat'];

export function flowBuildRoutes(services: Services): Route[] {
  const { builds, flows, store } = services;

  /** Starts the build; `direct` answers its events on this request (the client leaving cancels it), others its id. */
  function started(spec: BuildSpec): Reply {
    const job = builds.start(spec);
    if (spec.query.event_delivery !== 'direct') return Reply.json({ job_id: job.id });
    return ndjsonStream((watcher) => builds.watch(job, 0, watcher), () => job.run.cancel('client_gone'));
  }

  const buildRoute = { tags: TAGS, params: BuildFlowParams, query: BuildQuery, body: BuildRequest.optional() };
  const buildResponses = {
    200: { description: 'The job id (polling, streaming) or the events (direct)', schema: BuildJobResponse },
    404: { description: 'Unknown flow' },
    422: { description: 'Validation error', schema: ValidationErrorBody },
  };

  return [
    defineRoute({
      ...buildRoute,
      method: 'POST',
      path: '/api/v1/build/:flow_id/flow',
      summary: 'Build (run) a flow for the editor; its events are read from /api/v1/build/{job_id}/events',
      auth: 'user',
      responses: buildResponses,
      async handler(request) {
        const { params, query, body, headers, principal } = request;
        const userId = principal!.userId;
        const flow = await flows.findRunnable(userId, params.flow_id);
        if (!flow) throw new NotFoundError(`Flow with id ${params.flow_id} not found`);
        return started({ userId, flow, body: body ?? {}, query, requestVariables: headerVariables(headers) });
      },
    }),
    defineRoute({
      ...buildRoute,
      method: 'POST',
      path: '/api/v1/build_public_tmp/:flow_id/flow',
      summary: 'Build a PUBLIC flow without credentials, as its owner; the caller is told apart by its client_id cookie',
      auth: 'none',
      responses: { ...buildResponses, 400: { description: 'No client_id cookie' }, 403: { description: 'Flow is not public' } },
      async handler(request) {
        const { params, query, body, headers } = request;
        const clientId = readCookie(headers.cookie, 'client_id');
        if (!clientId) throw new BadRequestError('No client_id cookie found');
        const flow = await store.flows.getShared(params.flow_id);
        if (!flow || flow.user_id === null) throw new NotFoundError('Flow not found');
        if (flow.access_type !== 'PUBLIC') throw new ForbiddenError('Flow is not public');
        // Each client builds under a flow id of its own (Langflow's), so visitors' sessions and messages stay apart.
        const runFlowId = uuid5(`${clientId}_${flow.id}`);
        const publicQuery = { ...query, flow_name: query.flow_name ?? `${clientId}_${flow.id}` };
        const publicBody = { ...(body ?? {}), log_builds: (body?.log_builds ?? query.log_builds) || false };
        return started({ userId: flow.user_id, flow, body: publicBody, query: publicQuery, runFlowId });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/build/:job_id/events',
      summary: "A build's events: followed as NDJSON (streaming), since the last poll (polling), or all so far as JSON (stream=false)",
      tags: TAGS,
      auth: 'user',
      params: JobIdParams,
      query: BuildEventsQuery,
      responses: { 200: { description: "The build's events (NDJSON, or a JSON array with stream=false)", schema: z.array(BuildEvent) }, 404: { description: 'Unknown job' } },
      async handler(request) {
        const { params, query, principal } = request;
        const job: BuildJob = builds.find(principal!.userId, params.job_id);
        if (query.stream === false) return eventsJson(builds.events(job));
        if (query.event_delivery === 'polling') return ndjsonBatch(await builds.poll(job, (stop) => request.onClientGone(stop)));
        // A reader leaving does not stop the build: it may come back and continue after the events it counted.
        return ndjsonStream((watcher) => builds.watch(job, query.sequence_id ?? 0, watcher));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/build/:job_id/cancel',
      summary: 'Cancel a build: the run stops (its model calls are aborted)',
      tags: TAGS,
      auth: 'user',
      params: JobIdParams,
      responses: { 200: { description: 'Cancelled (a build already finished counts as cancelled)', schema: CancelFlowResponse }, 404: { description: 'Unknown job' } },
      async handler({ params, principal }) {
        await builds.cancel(principal!.userId, params.job_id);
        return { success: true, message: 'Flow build cancelled successfully' };
      },
    }),
  ];
}
