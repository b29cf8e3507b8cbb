/**
 * An OpenAI-compatible model server whose replies are shaped by the prompt, so one server serves every model job of
 * a bench: a prompt holding `tokens=N every=D wait=W hold=H` streams N content deltas `D` ms apart (0: all at once)
 * after holding the reply `W` ms before the first one (time for the bench to find the job's owner and attach its
 * watchers), then holds it `H` ms more (a long log whose job is still running). Then a finish chunk, a usage chunk
 * and `[DONE]`. It runs as its own process (this file is also its
 * script), so its timers and writes do not share an event loop with the bench's readers.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { startProcess } from './processes.js';

export interface PacedModelServer {
  /** `http://127.0.0.1:<port>/v1`, what OPENAI_BASE_URL takes. */
  baseURL: string;
  close(): Promise<void>;
}

export interface ReplyShape {
  tokens: number;
  /** Milliseconds between two tokens; 0 writes them all at once. */
  everyMs: number;
  /** Milliseconds before the first token. */
  waitMs: number;
  /** Milliseconds after the last token before the reply ends. */
  holdMs?: number;
}

/** The prompt that asks this server for a reply of `shape`. */
export const shapedPrompt = (shape: ReplyShape) => `tokens=${shape.tokens} every=${shape.everyMs} wait=${shape.waitMs} hold=${shape.holdMs ?? 0}`;

const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function shapeOf(body: string): ReplyShape {
  const number = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(body)?.[1] ?? 0);
  return { tokens: number('tokens') || 10, everyMs: number('every'), waitMs: number('wait'), holdMs: number('hold') };
}

async function streamReply(res: ServerResponse, shape: ReplyShape): Promise<void> {
  const base = { id: 'chatcmpl-paced', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: 'gpt-4o-mini' };
  const content = sse({ ...base, choices: [{ index: 0, delta: { content: 'tok ' }, logprobs: null, finish_reason: null }] });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(sse({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] }));
  if (shape.waitMs) await sleep(shape.waitMs);
  for (let i = 0; i < shape.tokens && !res.destroyed; i++) {
    res.write(content);
    if (shape.everyMs) await sleep(shape.everyMs);
  }
  if (shape.holdMs) await sleep(shape.holdMs);
  if (res.destroyed) return;
  res.write(sse({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] }));
  res.write(sse({ ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: shape.tokens, total_tokens: shape.tokens + 1 } }));
  res.end('data: [DONE]\n\n');
}

function listen(): void {
  const http = createServer(async (req, res) => {
    const body = await text(req);
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"invalid_request_error"}}');
      return;
    }
    // A killed caller (the recovery measure) leaves a write failing on a closed socket: not this server's error.
    res.on('error', () => {});
    void streamReply(res, shapeOf(body));
  });
  http.requestTimeout = 0;
  http.timeout = 0;
  http.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}\n`));
}

export async function startPacedModelServer(): Promise<PacedModelServer> {
  const server = await startProcess(fileURLToPath(import.meta.url), []);
  return { baseURL: `${server.url}/v1`, close: server.stop };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) listen();
