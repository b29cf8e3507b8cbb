/**
 * One chat call, streamed (tokens go to the run's events as they arrive) or not. Plain text calls to the
 * OpenAI-compatible providers (OpenAI, Google, Ollama) go through our own chat-completions client; Anthropic and
 * JSON mode stay on the AI SDK. The run's AbortSignal (and the node's timeout) reaches the HTTP request in
 * flight; errors become ComponentErrors with the provider's message.
 */
import type { LanguageModelUsage, ModelMessage, streamText } from 'ai';
import { aiSdk } from '../shared/heavy-modules.js';
import type { LanguageModelValue } from '../../values/language-model.js';
import type { MessageValue } from '../../values/message.js';
import type { ComponentContext } from '../contract.js';
import type { ChatPrompt } from './chat-prompt.js';
import { chatCompletion } from './chat-completions/chat-client.js';
import type { ChatReply, Usage } from './chat-completions/reply.js';
import { chatRequestBody, type ChatTurn } from './chat-completions/request-body.js';
import { providerError } from './provider-error.js';
import { chatEndpointOf } from './providers.js';

export type { ChatReply, Usage } from './chat-completions/reply.js';

/** Where a streamed reply goes: one message id for all its tokens, announced by an empty add_message first. */
export interface TokenTarget {
  messageId: string;
  placeholder: MessageValue;
}

export function runChat(model: LanguageModelValue, prompt: ChatPrompt, ctx: ComponentContext, target?: TokenTarget): Promise<ChatReply> {
  // Chained, not awaited: no suspended async frame for as long as a streamed reply stays open. The call is made
  // by chatCall so that the error handler's closure keeps only what it reads (not the prompt nor the target).
  return withTimeout(ctx.signal, model.timeoutMs, chatCall(model, prompt, ctx, target)).catch((error: unknown) => {
    if (ctx.signal.aborted) throw error; // a cancelled run: the engine no longer listens
    throw providerError(error, model);
  });
}

function chatCall(model: LanguageModelValue, prompt: ChatPrompt, ctx: ComponentContext, target: TokenTarget | undefined): (signal: AbortSignal) => Promise<ChatReply> {
  return (signal) => {
    const endpoint = model.jsonMode ? undefined : chatEndpointOf(model);
    const turns = endpoint && plainTurns(prompt.messages);
    if (!endpoint || !turns) return sdkChat(model, prompt, ctx, signal, target);
    const body = chatRequestBody({ provider: model.provider, model: model.model, system: prompt.system, turns, settings: model.settings, stream: target !== undefined });
    return chatCompletion(endpoint, { body, maxRetries: model.settings.maxRetries, signal, onText: target && tokens(ctx, target) });
  };
}

/** The prompt's turns when all are plain text (what chatPrompt builds); otherwise the SDK converts them. */
function plainTurns(messages: readonly ModelMessage[]): ChatTurn[] | undefined {
  const turns: ChatTurn[] = [];
  for (const message of messages) {
    if ((message.role !== 'user' && message.role !== 'assistant') || typeof message.content !== 'string') return undefined;
    turns.push({ role: message.role, content: message.content });
  }
  return turns;
}

async function sdkChat(model: LanguageModelValue, prompt: ChatPrompt, ctx: ComponentContext, abortSignal: AbortSignal, target?: TokenTarget): Promise<ChatReply> {
  const { generateObject, generateText } = await aiSdk.load();
  const call = { model: await model.sdk(), ...prompt, ...model.settings, abortSignal };
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
  return streamChat(call, ctx, target);
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

/**
 * Emits tokens for the target, preceded once by its empty AI message (Langflow's v1 stream order). The
 * placeholder is let go once announced: a reply can stream for minutes, and only its id is needed after that.
 */
function tokens(ctx: ComponentContext, target: TokenTarget): (chunk: string) => void {
  let placeholder: MessageValue | undefined = target.placeholder;
  const { messageId } = target;
  return (chunk) => {
    if (placeholder) {
      const message = placeholder;
      placeholder = undefined;
      ctx.emit({ type: 'message', message });
    }
    ctx.emit({ type: 'token', messageId, chunk });
  };
}

/**
 * The run's signal, or one that also fires after `timeoutMs`. A timer and a listener, both removed when the call
 * ends (AbortSignal.any + AbortSignal.timeout kept every call's signals alive until the timeout fired).
 */
function withTimeout<T>(runSignal: AbortSignal, timeoutMs: number | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (!timeoutMs || timeoutMs <= 0) return attempt(call, runSignal);
  const controller = new AbortController();
  const onAbort = () => controller.abort(runSignal.reason);
  if (runSignal.aborted) onAbort();
  else runSignal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException(`The model call timed out after ${timeoutMs / 1000} s`, 'TimeoutError')), timeoutMs);
  return attempt(call, controller.signal).finally(() => {
    clearTimeout(timer);
    runSignal.removeEventListener('abort', onAbort);
  });
}

/** The call's promise; a synchronous throw becomes its rejection, as it would in an async function. */
function attempt<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
  try {
    return call(signal);
  } catch (error) {
    return Promise.reject(error);
  }
}

export function usageOf(usage: LanguageModelUsage | undefined): Usage | null {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return null;
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: usage.totalTokens ?? prompt + completion };
}
