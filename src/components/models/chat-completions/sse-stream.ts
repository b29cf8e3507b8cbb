/**
 * A streamed chat-completions reply read straight off the socket: eventsource-parser over the response's string
 * chunks, one JSON.parse per event, each text delta handed to `onText` in the same tick it arrived. No async
 * iterator or promise per token (the AI SDK's WHATWG pipeline cost ~29 us and dozens of objects per token).
 *
 * The reply must end with `[DONE]`; a connection that closes first, an `error` object in a chunk or a chunk that
 * is not JSON fails the call (and closes the connection) instead of passing off half a reply as the answer. A
 * server that ends its body cleanly after a finish reason but forgets `[DONE]` is accepted.
 */
import type { IncomingMessage } from 'node:http';
import { createParser } from 'eventsource-parser';
import { ChatReplyError } from './call-error.js';
import { excerpt, messageOf, usageFrom, type ChatReply } from './reply.js';

interface Chunk {
  choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[];
  usage?: Parameters<typeof usageFrom>[0];
  error?: unknown;
}

export function readStreamReply(res: IncomingMessage, signal: AbortSignal, onText: (text: string) => void): Promise<ChatReply> {
  return new Promise((resolve, reject) => {
    const reply: ChatReply = { text: '', usage: null };
    let done = false;
    let finished = false;
    let settled = false;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      res.destroy();
      reject(error);
    };

    const parser = createParser({
      onEvent({ data }) {
        if (settled || done) return;
        if (data === '[DONE]') {
          done = true;
          return;
        }
        let chunk: Chunk;
        try {
          chunk = JSON.parse(data);
        } catch {
          return fail(new ChatReplyError(`a stream chunk is not JSON: ${excerpt(data)}`));
        }
        if (chunk === null || typeof chunk !== 'object') return fail(new ChatReplyError(`a stream chunk is not an object: ${excerpt(data)}`));
        if (chunk.error) return fail(new ChatReplyError(`the model server sent an error mid-stream: ${messageOf(chunk.error)}`));
        const choice = chunk.choices?.[0];
        if (choice) {
          const content = choice.delta?.content;
          if (typeof content === 'string' && content !== '') {
            reply.text += content;
            try {
              onText(content);
            } catch (error) {
              return fail(error);
            }
          }
          if (choice.finish_reason) finished = true;
        }
        if (chunk.usage) reply.usage = usageFrom(chunk.usage);
      },
    });

    res.setEncoding('utf8');
    res.on('data', (text: string) => parser.feed(text));
    res.once('end', () => {
      if (settled) return;
      if (!done && !finished) return fail(new ChatReplyError('the reply stream ended without [DONE]: the model server stopped mid-reply'));
      settled = true;
      resolve(reply);
    });
    // A broken connection shows as 'error' ("aborted") and/or a 'close' before the body completed.
    const broken = (error?: Error) =>
      fail(signal.aborted ? signal.reason : new ChatReplyError(`the connection to the model server closed mid-reply (no [DONE])${error ? `: ${error.message}` : ''}`, { cause: error }));
    res.once('error', broken);
    res.once('close', () => {
      if (!res.complete) broken();
    });
  });
}
