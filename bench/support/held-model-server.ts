/**
 * A slow OpenAI-compatible model for the open-streams bench: each streamed chat completion gets its first token at
 * once and then waits, holding its connection open, until the bench writes `release` on the server's stdin; then
 * every waiting stream gets a second token, its finish and `[DONE]`. So the bench decides exactly when N runs are
 * in flight at the same time. It runs as its own process (this file is also its script) so holding 10,000 sockets
 * costs the bench's and the service's processes nothing.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startProcess } from './processes.js';

export interface HeldModelServer {
  /** `http://127.0.0.1:<port>/v1`, what OPENAI_BASE_URL takes. */
  baseURL: string;
  /** Finishes every stream held so far; later requests are held again until the next release. */
  release(): void;
  close(): Promise<void>;
}

const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  sse({ id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });

const FIRST = chunk({ role: 'assistant', content: 'held ' });
const LAST = chunk({ content: 'released' }) + chunk({}, 'stop') + sse({ id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }) + 'data: [DONE]\n\n';

function serve(): void {
  let held: ServerResponse[] = [];
  const http = createServer((req, res) => {
    // The request body is not needed: it is drained only to learn that the request is complete.
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"invalid_request_error"}}');
        return;
      }
      // `connection: close`: the service keeps no idle sockets to the model between phases, so its descriptor
      // count after the warm-up is its baseline.
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
      res.write(FIRST);
      held.push(res);
      res.on('close', () => {
        if (!res.writableEnded) held = held.filter((r) => r !== res);
      });
    });
  });
  // Node's defaults would cut a held request: no request timeout, no idle timeout here.
  http.requestTimeout = 0;
  http.timeout = 0;
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() !== 'release') return;
    const releasing = held;
    held = [];
    for (const res of releasing) res.end(LAST);
  });
  // A deep accept queue: the service opens thousands of connections in a burst.
  http.listen({ port: 0, host: '127.0.0.1', backlog: 8192 }, () => process.stdout.write(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}\n`));
}

export async function startHeldModelServer(): Promise<HeldModelServer> {
  const server = await startProcess(fileURLToPath(import.meta.url), [], {}, { stdin: true });
  return { baseURL: `${server.url}/v1`, release: () => void server.child.stdin!.write('release\n'), close: server.stop };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve();
