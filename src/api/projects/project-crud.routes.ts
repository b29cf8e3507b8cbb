/** Projects CRUD (Langflow's /api/v1/projects). */
import { z } from 'zod';
import { ProjectReadQuery } from '../../../protocol/flow-query.schema.js';
import { toFlowRead, UuidString } from '../../../protocol/flow.schema.js';
import { ProjectCreate, ProjectRead, ProjectUpdate, ProjectWithFlows, ProjectWithPaginatedFlows, toProjectRead } from '../../../protocol/project.schema.js';
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';

export const ProjectIdParams = z.object({ project_id: UuidString });
const TAGS = ['Projects'];

export function projectCrudRoutes({ projects }: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/projects',
      summary: 'List your projects, the default one first',
      tags: TAGS,
      auth: 'user',
      responses: { 200: { description: 'Projects', schema: z.array(ProjectRead) } },
      handler: async ({ principal }) => (await projects.list(principal!.userId)).map(toProjectRead),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/projects',
      summary: 'Create a project (a taken name becomes "Name (n)") and move the listed flows into it',
      tags: TAGS,
      auth: 'user',
      body: ProjectCreate,
      responses: { 201: { description: 'Created', schema: ProjectRead } },
      async handler({ body, principal }) {
        const { flows_list, components_list, ...fields } = body;
        const project = await projects.create(principal!.userId, fields, [...(flows_list ?? []), ...(components_list ?? [])]);
        return Reply.json(toProjectRead(project), 201);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/projects/:project_id',
      summary: 'Read a project with its flows (all of them, or a page when both page and size are given)',
      tags: TAGS,
      auth: 'user',
      params: ProjectIdParams,
      query: ProjectReadQuery,
      responses: {
        200: { description: 'FolderReadWithFlows, or {folder, flows: Page} with page&size', schema: z.union([ProjectWithFlows, ProjectWithPaginatedFlows]) },
        404: { description: 'Project not found' },
      },
      async handler({ params, query, principal }) {
        const project = await projects.owned(principal!.userId, params.project_id);
        if (query.page === undefined || query.size === undefined) {
          return { ...toProjectRead(project), flows: (await projects.flowsIn(project)).map(toFlowRead) };
        }
        const { page, size, is_component: isComponent, is_flow: isFlow, search } = query;
        const flows = await projects.pageOfFlows(project, { page, size, isComponent, isFlow, search });
        return { folder: toProjectRead(project), flows: { ...flows, items: flows.items.map(toFlowRead) } };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/projects/:project_id',
      summary: 'Rename a project, or update it and reassign its flows/components (dropped ones go to the default project)',
      tags: TAGS,
      auth: 'user',
      params: ProjectIdParams,
      body: ProjectUpdate,
      responses: { 200: { description: 'The project', schema: ProjectRead }, 404: { description: 'Project not found' } },
      async handler({ params, body, principal }) {
        return toProjectRead(await projects.update(principal!.userId, params.project_id, body));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/projects/:project_id',
      summary: 'Delete a project and its flows',
      tags: TAGS,
      auth: 'user',
      params: ProjectIdParams,
      responses: { 204: { description: 'Deleted' }, 404: { description: 'Project not found' } },
      async handler({ params, principal }) {
        await projects.delete(principal!.userId, params.project_id);
        return Reply.empty(204);
      },
    }),
  ];
}
