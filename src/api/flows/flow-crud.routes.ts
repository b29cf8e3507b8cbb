/** Flows CRUD (Langflow's /api/v1/flows): create, list, read, update, delete one or many. */
import { z } from 'zod';
import { FlowListQuery } from '../../../protocol/flow-query.schema.js';
import { FlowCreate, FlowHeader, FlowIds, FlowRead, FlowsPage, FlowUpdate, toFlowHeader, toFlowRead, UuidString } from '../../../protocol/flow.schema.js';
import { FlowReadWithUnrunnable } from '../../../protocol/unrunnable.schema.js';
import type { Services } from '../../services/services.js';
import { savedFlowAnswer } from './unrunnable-answer.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';

export const FlowIdParams = z.object({ flow_id: UuidString });
const TAGS = ['Flows'];

export function flowCrudRoutes({ flows, runner }: Services): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/flows',
      summary: 'Create a flow (taken names become "Name (n)", taken endpoint names "ep-n")',
      tags: TAGS,
      auth: 'user',
      body: FlowCreate,
      responses: { 201: { description: 'Created, with the nodes that will not run here', schema: FlowReadWithUnrunnable } },
      async handler({ body, principal }) {
        return Reply.json(savedFlowAnswer(runner, await flows.create(principal!.userId, body)), 201);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/flows',
      summary: 'List your flows: all of them (get_all, default), headers only, or a page of one folder',
      tags: TAGS,
      auth: 'user',
      query: FlowListQuery,
      responses: {
        200: { description: 'FlowRead[] (get_all), FlowHeader[] (header_flows) or a Page of FlowRead', schema: z.union([z.array(FlowRead), z.array(FlowHeader), FlowsPage]) },
      },
      async handler({ query, principal }) {
        const filter = { removeExamples: query.remove_example_flows, componentsOnly: query.components_only };
        if (!query.get_all) {
          const page = await flows.page(principal!.userId, query.folder_id, query.page, query.size, filter);
          return { ...page, items: page.items.map(toFlowRead) };
        }
        const all = await flows.list(principal!.userId, filter);
        return query.header_flows ? all.map(toFlowHeader) : all.map(toFlowRead);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/flows/:flow_id',
      summary: 'Read a flow',
      tags: TAGS,
      auth: 'user',
      params: FlowIdParams,
      responses: { 200: { description: 'The flow', schema: FlowRead }, 404: { description: 'Flow not found' } },
      handler: async ({ params, principal }) => toFlowRead(await flows.readable(principal!.userId, params.flow_id)),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/flows/:flow_id',
      summary: 'Update a flow (null fields are left alone; endpoint_name null or "" clears it)',
      tags: TAGS,
      auth: 'user',
      params: FlowIdParams,
      body: FlowUpdate,
      responses: { 200: { description: 'The updated flow, with the nodes that will not run here', schema: FlowReadWithUnrunnable }, 404: { description: 'Flow not found' } },
      async handler({ params, body, principal }) {
        return savedFlowAnswer(runner, await flows.update(principal!.userId, params.flow_id, body));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/flows/:flow_id',
      summary: 'Delete a flow',
      tags: TAGS,
      auth: 'user',
      params: FlowIdParams,
      responses: { 200: { description: 'Deleted', schema: z.object({ message: z.string() }) }, 404: { description: 'Flow not found' } },
      async handler({ params, principal }) {
        await flows.delete(principal!.userId, params.flow_id);
        return { message: 'Flow deleted successfully' };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/flows',
      summary: 'Delete several flows by id (ids that are not yours are skipped)',
      tags: TAGS,
      auth: 'user',
      body: FlowIds,
      responses: { 200: { description: 'How many were deleted', schema: z.object({ deleted: z.number().int() }) } },
      async handler({ body, principal }) {
        return { deleted: await flows.deleteMany(principal!.userId, body) };
      },
    }),
  ];
}
