/** POST /api/v1/validate/flow (ours): a flow checked without running it, in levels (src/langflow/flow-validation.ts). */
import { z } from 'zod';

export const FlowValidationQuery = z.object({ level: z.coerce.number().int().min(1).max(4).default(4) });

export const FlowValidationRequest = z
  .record(z.string(), z.unknown())
  .describe('A flow: an export ({name, data: {nodes, edges}}) or its data ({nodes, edges})')
  .meta({ id: 'FlowValidationRequest' });

export const FlowValidationReport = z
  .object({
    ok: z.boolean().describe('No level found an error'),
    level: z.number().int().describe('The deepest level checked'),
    levels: z.array(z.object({ level: z.number().int(), name: z.string(), checked: z.boolean(), ok: z.boolean() })),
    issues: z.array(
      z.object({
        level: z.number().int(),
        severity: z.enum(['error', 'warning']),
        node_id: z.string().nullable(),
        node_name: z.string().nullable(),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'FlowValidationReport' });
