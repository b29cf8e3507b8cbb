/** The OpenAI chat-completions dialect of the local model server (also what Ollama and Google are reached by). */
import type { ServerResponse } from 'node:http';
import { contentText, sleep, type Plan, type Turn } from './model-server-replies.js';

export function openaiTurn(body: any): Turn {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const lastUser = [...messages].reverse().find((m) => m?.role === 'user');
  const format = body?.response_format;
  const jsonSchema = format?.type === 'json_schema' ? (format.json_schema?.schema ?? {}) : format?.type === 'json_object' ? {} : undefined;
  return {
    model: String(body?.model ?? ''),
    stream: body?.stream === true,
    lastUserText: contentText(lastUser?.content),
    promptTexts: messages.map((m) => contentText(m?.content)),
    jsonSchema,
  };
}

export function openaiError(res: ServerResponse, error: NonNullable<Plan['error']>): void {
  const type = error.type ?? (error.status === 401 ? 'invalid_request_error' : 'api_error');
  sendJson(res, error.status, { error: { message: error.message, type, param: null, code: error.code ?? null } }, error.headers);
}

let completions = 0;

export async function openaiReply(res: ServerResponse, turn: Turn, plan: Plan, body: any, isOpen: () => boolean): Promise<void> {
  const id = `chatcmpl-${++completions}`;
  const created = Math.floor(Date.now() / 1000);
  const finishReason = plan.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const toolCalls = plan.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }));

  if (!turn.stream) {
    for (let i = 0; i < plan.tokens.length && plan.tokenDelayMs > 0 && isOpen(); i++) await sleep(plan.tokenDelayMs);
    if (!isOpen()) return;
    const message = { role: 'assistant', content: plan.tokens.length || !toolCalls.length ? plan.tokens.join('') : null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
    sendJson(res, 200, { id, object: 'chat.completion', created, model: turn.model, choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }], usage: plan.usage });
    return;
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  if (plan.rawStream !== undefined) {
    for (const part of [plan.rawStream].flat()) {
      if (!isOpen()) return;
      res.write(part);
      await sleep(2);
    }
    return void res.end();
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: turn.model, choices, ...extra })}\n\n`);
  const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

  delta({ role: 'assistant', content: '' });
  for (const [index, token] of plan.tokens.entries()) {
    if (plan.tokenDelayMs > 0) await sleep(plan.tokenDelayMs);
    if (!isOpen()) return;
    if (index === plan.cutOffAfter) return void res.destroy();
    delta({ content: token });
  }
  toolCalls.forEach((call, index) => delta({ tool_calls: [{ index, ...call }] }));
  delta({}, finishReason);
  if (body?.stream_options?.include_usage) chunk([], { usage: plan.usage });
  res.end('data: [DONE]\n\n');
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
