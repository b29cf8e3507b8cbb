/** Langflow's starter projects: here, our shipped examples as graph dumps. */
import { z } from 'zod';
import { GraphDump } from '../../../protocol/flow.schema.js';
import type { Services } from '../../services/services.js';
import { defineRoute, type Route } from '../../edge/route.js';

export function starterProjectRoutes({ examples }: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/starter-projects',
      summary: 'The starter projects (our example flows) as graph dumps',
      tags: ['Flows'],
      auth: 'user',
      responses: { 200: { description: 'Graph dumps', schema: z.array(GraphDump) } },
      handler: () => examples.graphs(),
    }),
  ];
}
