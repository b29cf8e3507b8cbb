/**
 * A minimal OpenAI-compatible model server for the bench: `POST /v1/chat/completions` with `stream: true` answers
 * `tokens` content deltas, a finish chunk, a usage chunk and `[DONE]`, one `res.write` per chunk and no pauses, so
 * what the bench sees is the cost of whoever reads the stream, not of the model. It runs as its own process (this
 * file is also its script): in the bench's process its synchronous writes would hold back the bench's reader.
 */
import { createServer, type ServerResponse } from 'node:http';
import { text } from 'node:stream/consumers';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startProcess } from './processes.js';

export interface StreamModelServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** `<url>/v1`, what OPENAI_BASE_URL takes. */
  baseURL: string;
  close(): Promise<void>;
}

export const TOKEN_TEXT = 'tok ';

const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;

function streamReply(res: ServerResponse, tokens: number, model: string): void {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  // Every content chunk is the same bytes: build it once so the server's own cost stays flat and small.
  const content = sse({ ...base, choices: [{ index: 0, delta: { content: TOKEN_TEXT }, logprobs: null, finish_reason: null }] });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(sse({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] }));
  for (let i = 0; i < tokens; i++) res.write(content);
  res.write(sse({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] }));
  res.write(sse({ ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: tokens, total_tokens: tokens + 1 } }));
  res.end('data: [DONE]\n\n');
}

function listen(tokens: number): void {
  const http = createServer(async (req, res) => {
    const body = await text(req);
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"invalid_request_error"}}');
      return;
    }
    let model = 'gpt-4o-mini';
    try {
      model = String((JSON.parse(body) as { model?: unknown }).model ?? model);
    } catch {
      // A bench-only server: a bad body still gets the stream.
    }
    streamReply(res, tokens, model);
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}\n`));
}

/** Starts the server in a child process answering `tokens` tokens per request. */
export async function startStreamModelServer(tokens: number): Promise<StreamModelServer> {
  const server = await startProcess(fileURLToPath(import.meta.url), [String(tokens)]);
  return { url: server.url, baseURL: `${server.url}/v1`, close: server.stop };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) listen(Number(process.argv[2] ?? 1000));
