/**
 * What the local model server answers: a scripted reply when a test queued one, else an echo of the last user
 * message. Both provider dialects decode their request into a `Turn` and encode the resulting `Plan`.
 */

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

export interface ScriptedReply {
  /** The reply text, streamed as word tokens (" word"). */
  text?: string;
  /** Exact token chunks (overrides `text`). */
  tokens?: string[];
  /** Tool calls instead of text (finish reason tool_calls / tool_use). */
  toolCalls?: ScriptedToolCall[];
  /** The document returned when the request asks for JSON (response_format, or Anthropic's json tool). */
  json?: unknown;
  /** Fail with this status and the provider's error body (and these headers, e.g. retry-after-ms). */
  error?: { status: number; message: string; type?: string; code?: string | null; headers?: Record<string, string> };
  /** OpenAI streams only: send this text as the whole event-stream body, then end it (broken streams); parts
   * of a list are written one at a time with a pause between, so they reach the client as separate reads. */
  rawStream?: string | string[];
  /** OpenAI streams only: destroy the connection after this many tokens, without [DONE]. */
  cutOffAfter?: number;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Pause before each token (cancellation tests). */
  tokenDelayMs?: number;
}

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** True when the client closed the connection before the reply ended. */
  aborted: boolean;
}

export type ReplyScript = ScriptedReply | ((request: RecordedRequest) => ScriptedReply);

/** A request decoded from either dialect. */
export interface Turn {
  model: string;
  stream: boolean;
  lastUserText: string;
  /** Every text the prompt carries (for deterministic prompt token counts). */
  promptTexts: string[];
  /** The JSON schema asked for, when the request wants a JSON reply (`{}` for plain JSON mode). */
  jsonSchema?: Record<string, unknown>;
}

export interface Plan {
  tokens: string[];
  toolCalls: Required<ScriptedToolCall>[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  tokenDelayMs: number;
  error?: ScriptedReply['error'];
  rawStream?: string | string[];
  cutOffAfter?: number;
}

let callIds = 0;

export function planReply(turn: Turn, reply: ScriptedReply | undefined, defaultDelayMs: number): Plan {
  const toolCalls = (reply?.toolCalls ?? []).map((call) => ({ ...call, id: call.id ?? `call_${++callIds}` }));
  let tokens: string[];
  if (reply?.tokens) tokens = reply.tokens;
  else if (reply?.text !== undefined) tokens = wordTokens(reply.text);
  else if (toolCalls.length > 0) tokens = [];
  else if (turn.jsonSchema) tokens = [JSON.stringify(reply?.json ?? sampleOf(turn.jsonSchema))];
  else tokens = wordTokens(`You said: ${turn.lastUserText}`);
  const prompt = reply?.usage?.prompt_tokens ?? turn.promptTexts.reduce((n, text) => n + wordTokens(text).length, 0);
  const completion = reply?.usage?.completion_tokens ?? tokens.length + toolCalls.length;
  return {
    tokens,
    toolCalls,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    tokenDelayMs: reply?.tokenDelayMs ?? defaultDelayMs,
    error: reply?.error,
    rawStream: reply?.rawStream,
    cutOffAfter: reply?.cutOffAfter,
  };
}

/** "You said: hi" -> ["You", " said:", " hi"]: joined back, the tokens give the text. */
export function wordTokens(text: string): string[] {
  return text === '' ? [] : text.split(/(?=\s)/);
}

/** A small document that satisfies a JSON schema, for JSON requests nobody scripted. */
export function sampleOf(schema: Record<string, any>): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  if (schema.anyOf) return sampleOf(schema.anyOf[0]);
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries<Record<string, any>>(schema.properties ?? {}).map(([key, sub]) => [key, sampleOf(sub)]));
    case 'array':
      return [sampleOf(schema.items ?? {})];
    case 'string':
      return 'text';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Text of a message's content, whether a string or a list of parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : part && typeof part.content === 'string' ? part.content : ''))
    .filter((text) => text !== '')
    .join('\n');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
