/** Stored chat messages (Langflow's message table) and the monitor API's views of them. */
import { z } from 'zod';

export const ContentBlock = z
  .object({
    title: z.string(),
    contents: z.array(z.record(z.string(), z.unknown())),
    allow_markdown: z.boolean().optional(),
    media_url: z.array(z.string()).nullable().optional(),
  })
  .meta({ id: 'ContentBlock' });

export const MessageRecord = z
  .object({
    id: z.string(),
    flow_id: z.string().nullable(),
    session_id: z.string(),
    context_id: z.string().nullable().optional(),
    /** ISO 8601, UTC. */
    timestamp: z.string(),
    sender: z.string().nullable(),
    sender_name: z.string().nullable(),
    text: z.string(),
    files: z.array(z.string()),
    error: z.boolean(),
    edit: z.boolean(),
    properties: z.record(z.string(), z.unknown()),
    category: z.string(),
    content_blocks: z.array(ContentBlock),
    /** Insertion order within the store: strictly increasing, so a session's history reads back in order. */
    seq: z.number(),
  })
  .meta({ id: 'MessageRecord' });
export type MessageRecord = z.infer<typeof MessageRecord>;
