/**
 * Our own client for OpenAI-compatible chat completions (OpenAI, Google's and Ollama's OpenAI endpoints): one
 * request body, retries until a 2xx status arrives, then the reply, streamed (each text delta to `onText` as it
 * arrives) or whole. Used for plain text calls, where the AI SDK's generality cost more than the model server did.
 */
import { postChat } from './http-call.js';
import type { ChatEndpoint } from './endpoint.js';
import { readJsonReply, type ChatReply } from './reply.js';
import { withRetries } from './retry.js';
import { readStreamReply } from './sse-stream.js';

export interface ChatCall {
  body: Record<string, unknown>;
  maxRetries: number | undefined;
  /** Aborting it destroys the request in flight (the run was cancelled or timed out). */
  signal: AbortSignal;
  /** Streams the reply when given. */
  onText?: (text: string) => void;
}

export function chatCompletion(endpoint: ChatEndpoint, call: ChatCall): Promise<ChatReply> {
  let payload: string;
  try {
    payload = JSON.stringify(call.body);
  } catch (error) {
    return Promise.reject(error);
  }
  const { signal, onText } = call;
  if (onText) {
    // Like the SDK's streamText: only the request is retried; a stream that breaks after its status is an error.
    // Chained, not awaited: an open stream keeps no suspended frame here (nor the payload once the status came).
    return withRetries(() => postChat(endpoint, payload, signal), call.maxRetries, signal).then((res) => readStreamReply(res, signal, onText));
  }
  // Like generateText: the whole call, body included, is one attempt.
  return withRetries(async () => readJsonReply(await postChat(endpoint, payload, signal)), call.maxRetries, signal);
}
