/**
 * POST /api/v1/custom_component (a source -> the frontend node the editor renders, and its type) and
 * /custom_component/update (a field change -> the updated node), as Langflow. The source is described in a sandbox,
 * so both answer only where custom components are allowed.
 */
import { CustomComponentRequest, CustomComponentResponse, UpdateCustomComponentRequest } from '../../../protocol/custom-component.schema.js';
import type { FrontendNode } from '../../../protocol/meta.schema.js';
import { summary } from '../../components/custom/custom-components.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError } from '../../errors/index.js';
import { customFrontendNode, withPreviousValues } from '../../langflow/custom-frontend-node.js';
import type { Services } from '../../services/services.js';
import { NOT_ALLOWED } from './validate.routes.js';

export function customComponentRoutes(services: Services): Route[] {
  const { customComponents, config } = services;

  /** The source's node, or a 400 saying what is wrong with it. */
  const nodeOf = (code: string): { node: FrontendNode; type: string } => {
    if (!config.CUSTOM_COMPONENTS) throw new BadRequestError(NOT_ALLOWED);
    const report = customComponents.inspect(code);
    if (!report.compiled) throw new BadRequestError(summary(report));
    const component = customComponents.componentOf(code);
    return { node: customFrontendNode(component, code, report.compiled.hash), type: component.type };
  };

  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/custom_component',
      summary: 'The editor node of a custom component source (fields, outputs, type)',
      tags: ['Custom components'],
      auth: 'user',
      body: CustomComponentRequest,
      responses: { 200: { description: 'The node and its type', schema: CustomComponentResponse } },
      handler: ({ body }) => {
        const { node, type } = nodeOf(body.code);
        return { data: withPreviousValues(node, body.frontend_node?.template), type };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/custom_component/update',
      summary: "A custom component's node after one of its fields changed",
      tags: ['Custom components'],
      auth: 'user',
      body: UpdateCustomComponentRequest,
      responses: { 200: { description: 'The updated node' } },
      handler: ({ body }) => {
        const { node } = nodeOf(body.code);
        const updated = withPreviousValues(node, body.template);
        // A change of something that is not a field (the editor sends `tool_mode` this way) only rebuilds the node.
        const changed = Object.hasOwn(updated.template, body.field) && body.field !== 'code' && body.field !== '_type' ? updated.template[body.field] : undefined;
        if (changed && body.field_value !== undefined) (changed as { value?: unknown }).value = body.field_value;
        updated.tool_mode = body.tool_mode;
        return updated;
      },
    }),
  ];
}
