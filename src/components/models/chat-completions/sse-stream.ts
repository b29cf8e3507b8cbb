/**
 * A streamed chat-completions reply read straight off the socket: the response's string chunks through
 * eventsource-parser, one JSON.parse per event, each text delta handed to `onText` in the tick it arrived. No async
 * iterator or promise per token (the AI SDK's WHATWG pipeline cost ~29 us and dozens of objects per token); the
 * socket listeners are shared functions that find their reader on the response, so a stream waiting on a slow
 * model holds one reader and its parser.
 *
 * The reply must end with `[DONE]`; a connection that closes first, an `error` object in a chunk or a chunk that
 * is not JSON fails the call (and closes the connection) instead of passing off half a reply as the answer. A
 * server that ends its body cleanly after a finish reason but forgets `[DONE]` is accepted.
 */
import type { IncomingMessage } from 'node:http';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { ChatReplyError } from './call-error.js';
import { excerpt, messageOf, usageFrom, type ChatReply } from './reply.js';

interface Chunk {
  choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[];
  usage?: Parameters<typeof usageFrom>[0];
  error?: unknown;
}

const READER = Symbol('chat stream reader');
type Response = IncomingMessage & { [READER]?: StreamReader };

export function readStreamReply(res: IncomingMessage, signal: AbortSignal, onText: (text: string) => void): Promise<ChatReply> {
  return new Promise((resolve, reject) => {
    (res as Response)[READER] = new StreamReader(res, signal, onText, resolve, reject);
    res.setEncoding('utf8');
    res.on('data', onData);
    // 'on', not 'once', throughout: each 'once' wraps its listener in a closure and a state object per stream
    // ('end' and 'close' come once anyway; the reader ignores all but the first outcome), and a second error
    // event with no listener would throw.
    res.on('end', onEnd);
    res.on('error', onError);
    res.on('close', onClose);
  });
}

function onData(this: Response, text: string): void {
  this[READER]?.feed(text);
}
function onEnd(this: Response): void {
  this[READER]?.end();
}
// A broken connection shows as 'error' ("aborted") and/or a 'close' before the body completed.
function onError(this: Response, error: Error): void {
  this[READER]?.broken(error);
}
function onClose(this: Response): void {
  if (!this.complete) this[READER]?.broken();
}

class StreamReader {
  private readonly reply: ChatReply = { text: '', usage: null };
  private readonly sse: EventSourceParser = createParser({ onEvent: (event) => this.onData(event.data) });
  private done = false;
  private finished = false;
  private settled = false;

  constructor(
    private readonly res: IncomingMessage,
    private readonly signal: AbortSignal,
    private readonly onText: (text: string) => void,
    private readonly resolve: (reply: ChatReply) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  feed(text: string): void {
    if (!this.settled) this.sse.feed(text);
  }

  end(): void {
    if (this.settled) return;
    if (!this.done && !this.finished) return this.fail(new ChatReplyError('the reply stream ended without [DONE]: the model server stopped mid-reply'));
    this.settle();
    this.resolve(this.reply);
  }

  broken(error?: Error): void {
    const reason = this.signal.aborted
      ? this.signal.reason
      : new ChatReplyError(`the connection to the model server closed mid-reply (no [DONE])${error ? `: ${error.message}` : ''}`, { cause: error });
    this.fail(reason);
  }

  onData(data: string): void {
    if (this.settled || this.done) return;
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data);
    } catch {
      return this.fail(new ChatReplyError(`a stream chunk is not JSON: ${excerpt(data)}`));
    }
    if (chunk === null || typeof chunk !== 'object') return this.fail(new ChatReplyError(`a stream chunk is not an object: ${excerpt(data)}`));
    if (chunk.error) return this.fail(new ChatReplyError(`the model server sent an error mid-stream: ${messageOf(chunk.error)}`));
    const choice = chunk.choices?.[0];
    if (choice) {
      const content = choice.delta?.content;
      if (typeof content === 'string' && content !== '') {
        this.reply.text += content;
        try {
          this.onText(content);
        } catch (error) {
          return this.fail(error);
        }
      }
      if (choice.finish_reason) this.finished = true;
    }
    if (chunk.usage) this.reply.usage = usageFrom(chunk.usage);
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.settle();
    this.res.destroy();
    this.reject(error);
  }

  /** Once settled, the response no longer points at this reader (nor keeps the reply text alive through it). */
  private settle(): void {
    this.settled = true;
    (this.res as Response)[READER] = undefined;
  }
}
