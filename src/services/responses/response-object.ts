/**
 * The Response object (spec 2.9) of a responses run, as a pure function of who asked and how the run ended: the
 * same body answers a plain request, ends a stream (`response.completed`), and is what gets stored per id.
 */
import type { ExecutionResult } from '../../engine/execution-result.js';
import type { MessageItem, OutputItem, ResponseObject, ResponseStatus, ResponseUsage } from '../../../protocol/responses.schema.js';
import { isMessage, type MessageValue } from '../../values/message.js';
import { runUsage } from './run-usage.js';
import { toolItems } from './tool-items.js';

/** What a response is about, fixed when the request is accepted. */
export interface ResponseIdentity {
  /** `resp_<hex>`, unique per response. */
  id: string;
  /** Unix seconds. */
  createdAt: number;
  /** The id of the flow that runs. */
  model: string;
  previousResponseId: string | null;
  /** `include` asked for `tool_call.results`. */
  includeToolResults: boolean;
}

export const messageItemId = (responseId: string) => `msg_${responseId.replace(/^resp_/, '')}`;

export function messageItem(responseId: string, text: string, status: MessageItem['status']): MessageItem {
  return { type: 'message', id: messageItemId(responseId), status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

export function inProgressResponse(who: ResponseIdentity): ResponseObject {
  return responseOf(who, 'in_progress', [], null, null);
}

/** A completed run: tool calls first, then the reply; `selected` are the run's reported (chat output) vertices. */
export function completedResponse(who: ResponseIdentity, selected: readonly string[], outcome: Pick<ExecutionResult, 'results'>): ResponseObject {
  const reply = replyOf(selected, outcome);
  const output: OutputItem[] = [...toolItems(reply.message, who.includeToolResults), messageItem(who.id, reply.text, 'completed')];
  return responseOf(who, 'completed', output, runUsage(outcome), null);
}

/** A background response cancelled through its cancel endpoint (OpenAI's `cancelled`, with no error). */
export function cancelledResponse(who: ResponseIdentity): ResponseObject {
  return responseOf(who, 'cancelled', [], null, null);
}

export function failedResponse(who: ResponseIdentity, message: string): ResponseObject {
  return responseOf(who, 'failed', [], null, { code: 'server_error', message });
}

function responseOf(who: ResponseIdentity, status: ResponseStatus, output: OutputItem[], usage: ResponseUsage | null, error: ResponseObject['error']): ResponseObject {
  return {
    id: who.id,
    object: 'response',
    created_at: who.createdAt,
    status,
    error,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: who.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: who.previousResponseId,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1.0,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1.0,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  };
}

/** The first chat output's message; else the first text one of them produced (a string). */
function replyOf(selected: readonly string[], outcome: Pick<ExecutionResult, 'results'>): { text: string; message?: MessageValue } {
  const values = selected.flatMap((id) => Object.values(outcome.results.get(id) ?? {}));
  const message = values.find(isMessage);
  if (message) return { text: message.text, message };
  const text = values.find((value): value is string => typeof value === 'string');
  return { text: text ?? '' };
}
