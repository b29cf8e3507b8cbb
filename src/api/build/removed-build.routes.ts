/**
 * Build routes Langflow deprecated and its editor no longer calls (vertex-by-vertex builds kept in a server-side
 * graph cache, and the Celery task status). Serving them would take a second execution path beside the run
 * lifecycle, so they answer 410 Gone with a `detail` that names what replaces each.
 */
import { z } from 'zod';
import { BoundedId } from '../../../protocol/limits.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type HttpMethod, type Route } from '../../edge/route.js';

const BUILD = 'POST /api/v1/build/{flow_id}/flow and read its events from GET /api/v1/build/{job_id}/events';

const REMOVED: readonly (readonly [HttpMethod, string, string])[] = [
  ['POST', '/api/v1/build/:flow_id/vertices', `This endpoint was removed. Build the flow with ${BUILD}; recorded vertex builds are at GET /api/v1/monitor/builds?flow_id=.`],
  ['POST', '/api/v1/build/:flow_id/vertices/:vertex_id', `This endpoint was removed. To build one component and what it depends on, use ${BUILD} with stop_component_id={vertex_id}.`],
  ['GET', '/api/v1/build/:flow_id/:vertex_id/stream', `This endpoint was removed. A build's tokens arrive as "token" events: ${BUILD}.`],
  ['GET', '/api/v1/task/:task_id', 'This endpoint was removed. Run flows with POST /api/v1/run/{flow_id}, or in the background with POST /api/v2/workflows (background=true) and GET /api/v2/workflows?job_id=.'],
];

export function removedBuildRoutes(): Route[] {
  return REMOVED.map(([method, path, detail]) =>
    defineRoute({
      method,
      path,
      summary: 'Removed (410): the detail names its replacement',
      tags: ['Chat'],
      auth: 'none',
      hidden: true,
      deprecated: true,
      params: z.record(z.string(), BoundedId),
      bodyKind: 'raw',
      responses: { 410: { description: 'Gone; the detail names the replacement' } },
      handler: () => Reply.json({ detail }, 410),
    }),
  );
}
