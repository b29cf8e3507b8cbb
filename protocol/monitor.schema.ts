/** Monitor API shapes for messages (spec 4.5; Langflow's MessageResponse / MessageUpdate). */
import { z } from 'zod';
import { BoundedId } from './limits.js';
import { QueryInt } from './common.schema.js';

export const MessagesQuery = z.object({
  flow_id: BoundedId.optional(),
  session_id: BoundedId.optional(),
  sender: z.string().optional(),
  sender_name: z.string().optional(),
  order_by: z.enum(['timestamp', 'sender', 'sender_name', 'session_id', 'text', 'id']).default('timestamp'),
  order: z.enum(['ASC', 'DESC', 'asc', 'desc']).default('ASC').transform((o) => o.toUpperCase() as 'ASC' | 'DESC'),
  limit: QueryInt.pipe(z.number().int().min(0)).optional(),
  offset: QueryInt.pipe(z.number().int().min(0)).optional(),
});

export const MessageResponse = z
  .object({
    id: z.string(),
    flow_id: z.string().nullable(),
    timestamp: z.string(),
    sender: z.string().nullable(),
    sender_name: z.string().nullable(),
    session_id: z.string(),
    text: z.string(),
    files: z.string().describe('JSON-encoded list of file paths (Langflow serialises it as a string here)'),
    edit: z.boolean(),
    properties: z.record(z.string(), z.unknown()),
    category: z.string(),
    content_blocks: z.array(z.unknown()),
  })
  .loose()
  .meta({ id: 'MessageResponse' });

export const MessageUpdate = z
  .object({
    text: z.string().nullable().optional(),
    sender: z.string().nullable().optional(),
    sender_name: z.string().nullable().optional(),
    session_id: BoundedId.nullable().optional(),
    context_id: z.string().nullable().optional(),
    files: z.array(z.string()).nullable().optional(),
    edit: z.boolean().nullable().optional(),
    error: z.boolean().nullable().optional(),
    properties: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .meta({ id: 'MessageUpdate' });
