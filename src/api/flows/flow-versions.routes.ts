/** A flow's version history (content hashes that `flow_version` on /api/v2/workflows accepts), oldest first. */
import { z } from 'zod';
import type { Services } from '../../services/services.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BoundedId } from '../../../protocol/limits.js';

const FlowVersionItem = z.object({ version: z.string(), created_at: z.string() }).meta({ id: 'FlowVersion' });

export function flowVersionsRoutes({ flows, versions }: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/flows/:flow_id/versions',
      summary: "List a flow's stored versions (content hashes for flow_version), oldest first",
      tags: ['Flows'],
      auth: 'user',
      params: z.object({ flow_id: BoundedId }),
      responses: { 200: { description: 'The versions', schema: z.array(FlowVersionItem) } },
      async handler({ params, principal }) {
        const flow = await flows.owned(principal!.userId, params.flow_id);
        return (await versions.list(flow.id)).map((v) => ({ version: v.hash, created_at: v.createdAt }));
      },
    }),
  ];
}
