/** Flows readable without credentials: public flows by id, and our shipped examples. */
import { z } from 'zod';
import { FlowRead, toFlowRead } from '../../../protocol/flow.schema.js';
import type { Services } from '../../services/services.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { FlowIdParams } from './flow-crud.routes.js';

const TAGS = ['Flows'];

export function flowPublicRoutes({ flows, examples }: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/flows/public_flow/:flow_id',
      summary: 'Read a flow whose access_type is PUBLIC (no credentials; secrets left out)',
      tags: TAGS,
      auth: 'none',
      params: FlowIdParams,
      responses: { 200: { description: 'The flow', schema: FlowRead }, 403: { description: 'Flow is not public' } },
      handler: async ({ params }) => toFlowRead(await flows.publicFlow(params.flow_id)),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/flows/basic_examples',
      summary: 'The example flows this service ships with',
      tags: TAGS,
      auth: 'none',
      responses: { 200: { description: 'Example flows', schema: z.array(FlowRead) } },
      handler: () => examples.all().map(toFlowRead),
    }),
  ];
}
