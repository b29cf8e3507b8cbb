/**
 * One chat call through the AI SDK: streamed (tokens go to the run's events as they arrive) or not. The run's
 * AbortSignal reaches the HTTP request in flight; errors become ComponentErrors with the provider's message.
 */
import type { LanguageModelUsage, streamText } from 'ai';
import { aiSdk } from '../shared/heavy-modules.js';
import type { LanguageModelValue } from '../../values/language-model.js';
import type { MessageValue } from '../../values/message.js';
import type { ComponentContext } from '../contract.js';
import type { ChatPrompt } from './chat-prompt.js';
import { providerError } from './provider-error.js';

/** Token usage as Langflow reports it in `properties.usage`. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatReply {
  text: string;
  usage: Usage | null;
}

/** Where a streamed reply goes: one message id for all its tokens, announced by an empty add_message first. */
export interface TokenTarget {
  messageId: string;
  placeholder: MessageValue;
}

export async function runChat(model: LanguageModelValue, prompt: ChatPrompt, ctx: ComponentContext, target?: TokenTarget): Promise<ChatReply> {
  const abortSignal = callSignal(ctx.signal, model.timeoutMs);
  const { generateObject, generateText } = await aiSdk.load();
  const call = { model: await model.sdk(), ...prompt, ...model.settings, abortSignal };
  try {
    if (model.jsonMode) {
      const result = await generateObject({ ...call, output: 'no-schema' });
      const reply = { text: JSON.stringify(result.object), usage: usageOf(result.usage) };
      if (target && reply.text) tokens(ctx, target)(reply.text);
      return reply;
    }
    if (!target) {
      const result = await generateText(call);
      return { text: result.text, usage: usageOf(result.totalUsage) };
    }
    return await streamChat(call, ctx, target);
  } catch (error) {
    if (ctx.signal.aborted) throw error; // a cancelled run: the engine no longer listens
    throw providerError(error, model);
  }
}

async function streamChat(call: Parameters<typeof streamText>[0], ctx: ComponentContext, target: TokenTarget): Promise<ChatReply> {
  // Errors arrive as stream parts; the default onError would also print them.
  const result = aiSdk.get().streamText({ ...call, onError: () => {} });
  const emit = tokens(ctx, target);
  let text = '';
  let usage: Usage | null = null;
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta' && part.text) {
      text += part.text;
      emit(part.text);
    } else if (part.type === 'finish') usage = usageOf(part.totalUsage);
    else if (part.type === 'error') throw part.error;
    else if (part.type === 'abort') throw call.abortSignal?.reason ?? new Error('The model call was aborted');
  }
  return { text, usage };
}

/** Emits tokens for the target, preceded once by its empty AI message (Langflow's v1 stream order). */
function tokens(ctx: ComponentContext, target: TokenTarget): (chunk: string) => void {
  let announced = false;
  return (chunk) => {
    if (!announced) {
      announced = true;
      ctx.emit({ type: 'message', message: target.placeholder });
    }
    ctx.emit({ type: 'token', messageId: target.messageId, chunk });
  };
}

function callSignal(runSignal: AbortSignal, timeoutMs: number | undefined): AbortSignal {
  return timeoutMs && timeoutMs > 0 ? AbortSignal.any([runSignal, AbortSignal.timeout(timeoutMs)]) : runSignal;
}

export function usageOf(usage: LanguageModelUsage | undefined): Usage | null {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return null;
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: usage.totalTokens ?? prompt + completion };
}
