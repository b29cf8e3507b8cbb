/**
 * What of a flow will not run on this service: the `unsupported_nodes` beside a run's 400 `detail`, and beside a
 * created, uploaded or updated flow (a field Langflow's clients ignore; present only when some node will not run).
 */
import { z } from 'zod';
import { FlowRead } from './flow.schema.js';

export const UnrunnableNode = z
  .object({ id: z.string(), type: z.string(), display_name: z.string(), reason: z.string() })
  .meta({ id: 'UnsupportedNode', description: 'A node this service cannot run, and why' });

export const FlowReadWithUnrunnable = FlowRead.extend({
  unsupported_nodes: z.array(UnrunnableNode).optional().describe('The nodes that will not run here, and why (absent when every node runs)'),
}).meta({ id: 'FlowReadWithUnsupportedNodes' });
