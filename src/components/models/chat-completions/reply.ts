/**
 * Reading a chat-completions reply: the streamed one chunk by chunk (sse-stream.ts), the plain one here. Both give
 * the text and Langflow's usage (`null` when the server sent none).
 */
import type { IncomingMessage } from 'node:http';
import { ChatReplyError } from './call-error.js';
import { readText } from './http-call.js';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatReply {
  text: string;
  usage: Usage | null;
}

interface WireUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
}

/** The SDK's mapping: no usage unless the server counted prompt or completion tokens; the total defaults to their sum. */
export function usageFrom(usage: WireUsage | null | undefined): Usage | null {
  if (!usage || (usage.prompt_tokens == null && usage.completion_tokens == null)) return null;
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: usage.total_tokens ?? prompt + completion };
}

/** A non-streamed reply: `choices[0].message.content` (null for a reply without text) and `usage`. */
export async function readJsonReply(res: IncomingMessage): Promise<ChatReply> {
  const raw = await readText(res);
  let body: { choices?: { message?: { content?: unknown } }[]; usage?: WireUsage; error?: { message?: unknown } };
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ChatReplyError(`the reply is not JSON: ${excerpt(raw)}`);
  }
  if (body?.error) throw new ChatReplyError(`the model server answered with an error: ${messageOf(body.error)}`);
  const choice = Array.isArray(body?.choices) ? body.choices[0] : undefined;
  if (!choice) throw new ChatReplyError('Response did not contain any choices.');
  const content = choice.message?.content;
  return { text: typeof content === 'string' ? content : '', usage: usageFrom(body.usage) };
}

export const excerpt = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}...` : text) || '(empty)';

export function messageOf(error: unknown): string {
  const message = (error as { message?: unknown })?.message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}
