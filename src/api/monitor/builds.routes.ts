/** /api/v1/monitor/builds: the vertex builds recorded for a flow's builds (`log_builds`), its owner's only. */
import { VertexBuildMap, VertexBuildsQuery } from '../../../protocol/build.schema.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import type { Services } from '../../services/services.js';

const TAGS = ['Monitor'];

export function vertexBuildsRoutes({ vertexBuilds }: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/monitor/builds',
      summary: "A flow's recorded vertex builds, by vertex id, oldest first (another user's flow has none)",
      tags: TAGS,
      auth: 'user',
      query: VertexBuildsQuery,
      responses: { 200: { description: 'Vertex builds by vertex id', schema: VertexBuildMap } },
      handler: async ({ query, principal }) => ({ vertex_builds: await vertexBuilds.byVertex(principal!.userId, query.flow_id) }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/monitor/builds',
      summary: "Delete a flow's recorded vertex builds",
      tags: TAGS,
      auth: 'user',
      query: VertexBuildsQuery,
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ query, principal }) => {
        await vertexBuilds.clear(principal!.userId, query.flow_id);
        return Reply.empty(204);
      },
    }),
  ];
}
