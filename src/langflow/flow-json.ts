/**
 * The parts of Langflow's flow JSON the engine reads (research: components section 1). Everything else (UI state,
 * encoded handle strings, embedded Python `code`) is ignored and kept only in the stored copy.
 */
import { z } from 'zod';

export const TemplateField = z
  .object({
    type: z.string().optional(),
    value: z.unknown().optional(),
    show: z.boolean().optional(),
    load_from_db: z.boolean().optional(),
    file_path: z.unknown().optional(),
    list: z.boolean().nullable().optional(),
    display_name: z.string().nullable().optional(),
  })
  .loose();
export type TemplateField = z.infer<typeof TemplateField>;

export const FlowNode = z
  .object({
    id: z.string(),
    type: z.string().optional(),
    data: z
      .object({
        id: z.string().optional(),
        type: z.string().optional(),
        node: z
          .object({
            display_name: z.string().nullable().optional(),
            template: z.record(z.string(), z.unknown()).optional(),
          })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type FlowNode = z.infer<typeof FlowNode>;

export const FlowEdge = z
  .object({
    id: z.string().optional(),
    source: z.string().optional(),
    target: z.string().optional(),
    data: z
      .object({
        sourceHandle: z.object({ id: z.string().optional(), name: z.string().optional() }).loose().optional(),
        targetHandle: z.object({ id: z.string().optional(), fieldName: z.string().optional(), name: z.string().optional() }).loose().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type FlowEdge = z.infer<typeof FlowEdge>;

export const FlowJsonData = z.object({ nodes: z.array(z.unknown()).default([]), edges: z.array(z.unknown()).default([]) }).loose();

/** Sticky notes and anything that is not a component node. */
export function isComponentNode(node: FlowNode): boolean {
  if (node.type === 'noteNode') return false;
  const dataType = node.data?.type;
  return dataType !== undefined && dataType !== 'note';
}
