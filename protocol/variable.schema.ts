/** Global variables (Langflow's /api/v1/variables): Generic values are readable, Credential values never leave. */
import { z } from 'zod';
import { BoundedName } from './limits.js';

export const VariableType = z.enum(['Credential', 'Generic']);

export const VariableRecord = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  type: VariableType,
  /** Credentials are encrypted with the secret key; Generic values are kept as given. */
  value: z.string(),
  default_fields: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type VariableRecord = z.infer<typeof VariableRecord>;

export const VariableRead = z
  .object({ id: z.string(), name: z.string(), type: VariableType, value: z.string().nullable(), default_fields: z.array(z.string()) })
  .meta({ id: 'VariableRead' });

export const VariableCreate = z
  .object({
    name: BoundedName,
    value: z.string(),
    default_fields: z.array(z.string()).default([]),
    type: VariableType.default('Credential'),
  })
  .meta({ id: 'VariableCreate' });

export const VariableUpdate = z
  .object({
    id: z.string().optional(),
    name: BoundedName.min(1).optional(),
    value: z.string().min(1).optional(),
    default_fields: z.array(z.string()).optional(),
    type: VariableType.optional(),
  })
  .meta({ id: 'VariableUpdate' });
