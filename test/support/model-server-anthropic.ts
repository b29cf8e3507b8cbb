/** The Anthropic messages dialect of the local model server (`POST /v1/messages`, JSON or SSE). */
import type { ServerResponse } from 'node:http';
import { sendJson } from './model-server-openai.js';
import { contentText, sleep, type Plan, type Turn } from './model-server-replies.js';

/** The request as a Turn; `jsonTool` names the tool the client forces for JSON output (AI SDK's json tool). */
export function anthropicTurn(body: any): Turn & { jsonTool?: string } {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const lastUser = [...messages].reverse().find((m) => m?.role === 'user' && contentText(m.content) !== '');
  const forced = body?.tool_choice?.type === 'tool' ? String(body.tool_choice.name) : undefined;
  const jsonTool = forced?.startsWith('json') ? forced : undefined;
  const toolSchema = jsonTool ? (body.tools ?? []).find((t: any) => t?.name === jsonTool)?.input_schema : undefined;
  return {
    model: String(body?.model ?? ''),
    stream: body?.stream === true,
    lastUserText: contentText(lastUser?.content),
    promptTexts: [contentText(body?.system), ...messages.map((m) => contentText(m?.content))],
    jsonSchema: toolSchema ?? body?.output_format?.schema,
    jsonTool,
  };
}

export function anthropicError(res: ServerResponse, error: NonNullable<Plan['error']>): void {
  const type = error.type ?? (error.status === 401 ? 'authentication_error' : error.status === 429 ? 'rate_limit_error' : 'api_error');
  sendJson(res, error.status, { type: 'error', error: { type, message: error.message } });
}

let messageIds = 0;

export async function anthropicReply(res: ServerResponse, turn: Turn & { jsonTool?: string }, plan: Plan, isOpen: () => boolean): Promise<void> {
  // A forced json tool answers through a tool_use block holding the document.
  if (turn.jsonTool && plan.toolCalls.length === 0) {
    plan = { ...plan, tokens: [], toolCalls: [{ id: `toolu_json_${messageIds}`, name: turn.jsonTool, arguments: JSON.parse(plan.tokens.join('') || '{}') }] };
  }
  const id = `msg_${++messageIds}`;
  const stopReason = plan.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: plan.usage.prompt_tokens, output_tokens: plan.usage.completion_tokens };
  const toolBlocks = plan.toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments }));

  if (!turn.stream) {
    for (let i = 0; i < plan.tokens.length && plan.tokenDelayMs > 0 && isOpen(); i++) await sleep(plan.tokenDelayMs);
    if (!isOpen()) return;
    const content = [...(plan.tokens.length ? [{ type: 'text', text: plan.tokens.join('') }] : []), ...toolBlocks];
    sendJson(res, 200, { id, type: 'message', role: 'assistant', model: turn.model, content, stop_reason: stopReason, stop_sequence: null, usage });
    return;
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', { message: { id, type: 'message', role: 'assistant', model: turn.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } });
  let index = 0;
  if (plan.tokens.length > 0) {
    event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const token of plan.tokens) {
      if (plan.tokenDelayMs > 0) await sleep(plan.tokenDelayMs);
      if (!isOpen()) return;
      event('content_block_delta', { index, delta: { type: 'text_delta', text: token } });
    }
    event('content_block_stop', { index: index++ });
  }
  for (const block of toolBlocks) {
    event('content_block_start', { index, content_block: { ...block, input: {} } });
    event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    event('content_block_stop', { index: index++ });
  }
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  event('message_stop', {});
  res.end();
}
