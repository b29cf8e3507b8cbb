/**
 * A local stand-in for hosted model providers, so tests and the bench never call one: OpenAI's
 * `POST /v1/chat/completions` (JSON or SSE with `stream_options.include_usage`) and `GET /v1/models`, and
 * Anthropic's `POST /v1/messages` (JSON or SSE). Ollama and Google models reach it through their
 * OpenAI-compatible chat path. Replies are deterministic: a queued script (text, tokens, tool calls, a JSON
 * document, an error), else "You said: <last user message>" in word tokens. Every request is recorded, with
 * whether the client dropped the connection before the reply ended.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { anthropicError, anthropicReply, anthropicTurn } from './model-server-anthropic.js';
import { openaiError, openaiReply, openaiTurn, sendJson } from './model-server-openai.js';
import { planReply, type RecordedRequest, type ReplyScript, type ScriptedReply } from './model-server-replies.js';

export type { RecordedRequest, ReplyScript, ScriptedReply, ScriptedToolCall } from './model-server-replies.js';

export interface ModelServerOptions {
  /** Pause before each streamed token unless a reply says otherwise. */
  tokenDelayMs?: number;
  /** The reply when nothing is queued (default: the echo). */
  fallback?: (request: RecordedRequest) => ScriptedReply | undefined;
  /** Serves other OpenAI paths on the same host (the voice fakes): true when it answered the request. */
  serve?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Given the HTTP server once created (the realtime fake listens on its upgrade event). */
  attach?: (http: import('node:http').Server) => void;
}

export interface ModelServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** `<url>/v1`: the base URL OpenAI and Anthropic clients take. */
  baseURL: string;
  readonly requests: RecordedRequest[];
  /** Requests to the chat endpoints only (not /v1/models). */
  readonly chats: RecordedRequest[];
  tokenDelayMs: number;
  /** Queues replies: each chat request takes the next one. */
  script(...replies: ReplyScript[]): void;
  /** Resolves when the next chat request has arrived, before its reply starts. */
  nextChat(): Promise<RecordedRequest>;
  /** Resolves when a client drops a connection before its reply ended. */
  nextAbort(): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export const MODEL_IDS = ['gpt-4o-mini', 'gpt-4o', 'claude-3-5-haiku-latest', 'llama3.2'];

export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const queue: ReplyScript[] = [];
  const abortWaiters: ((request: RecordedRequest) => void)[] = [];
  const chatWaiters: ((request: RecordedRequest) => void)[] = [];
  const server: ModelServer = {
    url: '',
    baseURL: '',
    requests,
    get chats() {
      return requests.filter((r) => r.method === 'POST');
    },
    tokenDelayMs: options.tokenDelayMs ?? 0,
    script: (...replies) => void queue.push(...replies),
    nextAbort: () => new Promise((resolve) => abortWaiters.push(resolve)),
    nextChat: () => new Promise((resolve) => chatWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (options.serve?.(req, res)) return;
    const raw = await text(req);
    const path = (req.url ?? '/').split('?')[0];
    const record: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body: parseJson(raw), aborted: false };
    requests.push(record);
    if (record.method === 'POST') chatWaiters.splice(0).forEach((resolve) => resolve(record));
    res.on('close', () => {
      if (res.writableFinished) return;
      record.aborted = true;
      abortWaiters.splice(0).forEach((resolve) => resolve(record));
    });
    const isOpen = () => !res.destroyed && !record.aborted;

    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: MODEL_IDS.map((id) => ({ id, object: 'model', created: 0, owned_by: 'flowsvc-tests' })) });
    }
    const dialect = req.method === 'POST' && path.endsWith('/chat/completions') ? 'openai' : req.method === 'POST' && path.endsWith('/messages') ? 'anthropic' : undefined;
    if (!dialect) return sendJson(res, 404, { error: { message: `No route for ${req.method} ${path}`, type: 'invalid_request_error', param: null, code: 'not_found' } });
    if (record.body === undefined) return sendJson(res, 400, { error: { message: 'The body must be JSON', type: 'invalid_request_error', param: null, code: null } });

    const next = queue.shift();
    const scripted = typeof next === 'function' ? next(record) : (next ?? options.fallback?.(record));
    if (dialect === 'openai') {
      const turn = openaiTurn(record.body);
      const plan = planReply(turn, scripted, server.tokenDelayMs);
      return plan.error ? openaiError(res, plan.error) : openaiReply(res, turn, plan, record.body, isOpen);
    }
    const turn = anthropicTurn(record.body);
    const plan = planReply(turn, scripted, server.tokenDelayMs);
    return plan.error ? anthropicError(res, plan.error) : anthropicReply(res, turn, plan, isOpen);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: error.message, type: 'server_error', param: null, code: null } });
      else res.destroy(error);
    });
  });
  options.attach?.(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  server.baseURL = `${server.url}/v1`;
  return server;
}

function parseJson(raw: string): unknown {
  if (raw === '') return null;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
