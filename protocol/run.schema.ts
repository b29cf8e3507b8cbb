/** v1 run requests (spec 2.8; Langflow's SimplifiedAPIRequest and the run/advanced body). */
import { z } from 'zod';
import { BoundedId } from './limits.js';

export const Tweaks = z.record(z.string(), z.unknown()).meta({ id: 'Tweaks' });

export const RunRequest = z
  .object({
    input_value: z.string().nullable().optional(),
    input_type: z.enum(['chat', 'text', 'any', 'json']).default('chat'),
    output_type: z.string().default('chat'),
    output_component: z.string().default(''),
    tweaks: Tweaks.nullable().optional(),
    session_id: BoundedId.nullable().optional(),
  })
  .meta({ id: 'SimplifiedAPIRequest' });
export type RunRequest = z.infer<typeof RunRequest>;

export const AdvancedRunInput = z.strictObject({
  components: z.array(z.string()).default([]),
  input_value: z.string().nullable().optional(),
  session: BoundedId.nullable().optional(),
  type: z.enum(['chat', 'text', 'any', 'json']).default('any'),
});

export const AdvancedRunRequest = z
  .object({
    inputs: z.array(AdvancedRunInput).nullable().optional(),
    outputs: z.array(z.string()).nullable().optional(),
    tweaks: Tweaks.nullable().optional(),
    stream: z.boolean().default(false),
    session_id: BoundedId.nullable().optional(),
  })
  .meta({ id: 'RunAdvancedRequest' });

export const RunResponseSchema = z
  .object({
    session_id: z.string(),
    outputs: z.array(z.object({ inputs: z.record(z.string(), z.unknown()), outputs: z.array(z.record(z.string(), z.unknown())) })),
  })
  .meta({ id: 'RunResponse' });
