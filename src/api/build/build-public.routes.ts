/**
 * Public builds (Langflow's `build_public_tmp`): a PUBLIC flow built without a key, as its owner, for a visitor told
 * apart by its `client_id` cookie; the visitor reads and cancels its builds under the same prefix with that cookie
 * (Langflow's newer playground does), and the flow's owner can read them under /api/v1/build/ too.
 *
 * A public build runs the stored flow and nothing else (Langflow's fix of CVE-2026-33017): the body's `data` (a
 * graph of the caller's choosing, run as the owner with the owner's variables, files and custom components) and
 * its `files` (paths read as the owner's) are ignored; the visitor gives inputs only.
 */
import { readCookie } from '../../edge/cookie.js';
import type { BuildRequest } from '../../../protocol/build.schema.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors/index.js';
import { uuid5 } from '../../ids/uuid5.js';
import type { Services } from '../../services/services.js';
import { cancelReply, eventsReply } from './build-replies.js';
import { BUILD_ROUTE, CANCEL_ROUTE, EVENTS_ROUTE, startedReply } from './build.routes.js';

const COOKIE_ERROR = { 400: { description: 'No client_id cookie' } };

function clientIdOf(headers: Readonly<Record<string, string>>): string {
  const clientId = readCookie(headers.cookie, 'client_id');
  if (!clientId) throw new BadRequestError('No client_id cookie found');
  return clientId;
}

/** What a visitor may choose of a build: its inputs and which part of the stored graph runs, never the graph. */
function publicBuildBody(body: BuildRequest | undefined, logBuildsQuery: boolean): BuildRequest {
  const { inputs, start_component_id, stop_component_id, log_builds } = body ?? {};
  return { inputs, start_component_id, stop_component_id, log_builds: (log_builds ?? logBuildsQuery) || false };
}

export function publicBuildRoutes({ builds, store }: Services): Route[] {
  return [
    defineRoute({
      ...BUILD_ROUTE,
      method: 'POST',
      path: '/api/v1/build_public_tmp/:flow_id/flow',
      summary: 'Build a PUBLIC flow without credentials, as its owner: the stored flow only (a body `data` or `files` is ignored); the caller is told apart by its client_id cookie',
      auth: 'none',
      responses: { ...BUILD_ROUTE.responses, ...COOKIE_ERROR, 403: { description: 'Flow is not public' } },
      async handler({ params, query, body, headers }) {
        const clientId = clientIdOf(headers);
        const flow = await store.flows.getShared(params.flow_id);
        if (!flow || flow.user_id === null) throw new NotFoundError('Flow not found');
        if (flow.access_type !== 'PUBLIC') throw new ForbiddenError('Flow is not public');
        // Each visitor builds under a flow id of its own (Langflow's), so visitors' sessions and messages stay apart.
        const runFlowId = uuid5(`${clientId}_${flow.id}`);
        const publicQuery = { ...query, flow_name: query.flow_name ?? `${clientId}_${flow.id}` };
        const publicBody = publicBuildBody(body, query.log_builds);
        return startedReply(builds, { userId: flow.user_id, flow, body: publicBody, query: publicQuery, runFlowId, clientId });
      },
    }),
    defineRoute({
      ...EVENTS_ROUTE,
      method: 'GET',
      path: '/api/v1/build_public_tmp/:job_id/events',
      summary: "A public build's events, for the visitor that started it (its client_id cookie)",
      auth: 'none',
      responses: { ...EVENTS_ROUTE.responses, ...COOKIE_ERROR },
      handler: (request) => eventsReply(builds, builds.findPublic(clientIdOf(request.headers), request.params.job_id), request.query, request),
    }),
    defineRoute({
      ...CANCEL_ROUTE,
      method: 'POST',
      path: '/api/v1/build_public_tmp/:job_id/cancel',
      summary: 'Cancel a public build, for the visitor that started it (its client_id cookie)',
      auth: 'none',
      responses: { ...CANCEL_ROUTE.responses, ...COOKIE_ERROR },
      handler: ({ params, headers }) => cancelReply(builds, builds.findPublic(clientIdOf(headers), params.job_id)),
    }),
  ];
}
