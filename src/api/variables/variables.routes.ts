/** /api/v1/variables: the current user's global variables. */
import { z } from 'zod';
import { VariableCreate, VariableRead, VariableUpdate } from '../../../protocol/variable.schema.js';
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BoundedId } from '../../../protocol/limits.js';

const IdParams = z.object({ variable_id: BoundedId });

export function variablesRoutes(services: Services): Route[] {
  const { variables } = services;
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/variables',
      summary: 'Create a global variable (Credential values are encrypted and never returned)',
      tags: ['Variables'],
      auth: 'user',
      body: VariableCreate,
      responses: { 201: { description: 'Created', schema: VariableRead } },
      handler: async ({ body, principal }) => Reply.json(await variables.create(principal!.userId, body), 201),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/variables',
      summary: 'List your global variables (Credential values are null)',
      tags: ['Variables'],
      auth: 'user',
      responses: { 200: { description: 'Variables', schema: z.array(VariableRead) } },
      handler: ({ principal }) => variables.list(principal!.userId),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/variables/:variable_id',
      summary: 'Update a global variable',
      tags: ['Variables'],
      auth: 'user',
      params: IdParams,
      body: VariableUpdate,
      responses: { 200: { description: 'Updated', schema: VariableRead } },
      handler: ({ params, body, principal }) => variables.update(principal!.userId, params.variable_id, body),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/variables/:variable_id',
      summary: 'Delete a global variable',
      tags: ['Variables'],
      auth: 'user',
      params: IdParams,
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ params, principal }) => {
        await variables.delete(principal!.userId, params.variable_id);
        return Reply.empty(204);
      },
    }),
  ];
}
