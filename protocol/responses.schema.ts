/**
 * The responses-style endpoint (spec 2.9, POST /api/v1/responses): an OpenAI Responses API look-alike where
 * `model` names a flow. Also the OpenAI error body its errors use and the record kept per response.
 */
import { z } from 'zod';
import { BoundedId } from './limits.js';

export const ResponsesRequest = z
  .object({
    model: BoundedId.describe('The flow id or endpoint name to run.'),
    input: z.string().describe('The input text, given to the flow\'s Chat Input.'),
    stream: z.boolean().default(false),
    background: z.boolean().default(false),
    tools: z.array(z.unknown()).nullable().optional().describe('Not supported: any value is refused.'),
    previous_response_id: BoundedId.nullable().optional().describe('A response id, or any session id, to continue a conversation.'),
    include: z.array(z.string()).nullable().optional().describe('`tool_call.results` reports tool calls with their results.'),
  })
  .meta({ id: 'OpenAIResponsesRequest' });
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

export const OutputText = z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()) });

export const MessageItem = z.object({
  type: z.literal('message'),
  id: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
  role: z.literal('assistant'),
  content: z.array(OutputText),
});
export type MessageItem = z.infer<typeof MessageItem>;

/** A tool the flow's agent called, as OpenAI reports a function call. */
export const FunctionCallItem = z.object({
  id: z.string(),
  type: z.literal('function_call'),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
  name: z.string(),
  arguments: z.string(),
  call_id: z.string(),
});
export type FunctionCallItem = z.infer<typeof FunctionCallItem>;

/** A tool call with its result (`include: ["tool_call.results"]`), Langflow's own item type. */
export const ToolCallItem = z.object({
  id: z.string(),
  type: z.literal('tool_call'),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
  tool_name: z.string(),
  queries: z.array(z.string()),
  results: z.unknown(),
});
export type ToolCallItem = z.infer<typeof ToolCallItem>;

export const OutputItem = z.discriminatedUnion('type', [MessageItem, FunctionCallItem, ToolCallItem]);
export type OutputItem = z.infer<typeof OutputItem>;

/** Token usage summed over the run's model calls, under both the spec's names and the ones OpenAI clients read. */
export const ResponseUsage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  input_tokens_details: z.object({ cached_tokens: z.number().int() }),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
});
export type ResponseUsage = z.infer<typeof ResponseUsage>;

/** The spec's three, and OpenAI's `cancelled` for a background response cancelled through its cancel endpoint. */
export const ResponseStatus = z.enum(['completed', 'in_progress', 'failed', 'cancelled']);
export type ResponseStatus = z.infer<typeof ResponseStatus>;

export const ResponseObject = z
  .object({
    id: z.string(),
    object: z.literal('response'),
    created_at: z.number().int(),
    status: ResponseStatus,
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    incomplete_details: z.null(),
    instructions: z.null(),
    max_output_tokens: z.null(),
    model: z.string().describe('The id of the flow that ran.'),
    output: z.array(OutputItem),
    parallel_tool_calls: z.literal(true),
    previous_response_id: z.string().nullable(),
    reasoning: z.object({ effort: z.null(), summary: z.null() }),
    store: z.literal(true),
    temperature: z.number(),
    text: z.object({ format: z.object({ type: z.literal('text') }) }),
    tool_choice: z.literal('auto'),
    tools: z.array(z.unknown()),
    top_p: z.number(),
    truncation: z.literal('disabled'),
    usage: ResponseUsage.nullable(),
    user: z.null(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenAIResponsesResponse' });
export type ResponseObject = z.infer<typeof ResponseObject>;

/** The spec's stream chunk; the stream also carries OpenAI's typed events (src/api/responses/response-stream.ts). */
export const ResponseChunk = z
  .object({
    id: z.string(),
    object: z.literal('response.chunk'),
    created: z.number().int(),
    model: z.string(),
    delta: z.record(z.string(), z.unknown()),
    status: z.enum(['completed', 'failed']).nullable(),
  })
  .meta({ id: 'OpenAIResponsesStreamChunk' });

export const OpenAIErrorBody = z
  .object({
    error: z.object({ message: z.string(), type: z.string(), code: z.string().nullable(), param: z.string().nullable() }),
  })
  .meta({ id: 'OpenAIErrorResponse' });
export type OpenAIErrorBody = z.infer<typeof OpenAIErrorBody>;

/** What is kept per response id: the conversation's session (for `previous_response_id`) and the reply itself. */
export const StoredResponse = z.object({
  id: z.string(),
  flow_id: z.string(),
  session_id: z.string(),
  user_id: z.string(),
  /** Unix seconds. */
  created_at: z.number().int(),
  response: ResponseObject,
});
export type StoredResponse = z.infer<typeof StoredResponse>;
