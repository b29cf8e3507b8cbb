/**
 * One POST of a chat-completions body over node:http(s): resolves with the response once a 2xx status arrives,
 * rejects with a ChatCallError for an error status (the provider's `error.message`) or a connection failure, and
 * with the signal's reason when the signal aborts. No fetch and no WHATWG streams: the reply is the socket's own
 * IncomingMessage, read by whoever called. The signal keeps the socket until the reply ends, so aborting a run
 * mid-stream closes the connection and the model server sees its request cancelled.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import { ChatCallError, isRetryableStatus } from './call-error.js';
import type { ChatEndpoint } from './endpoint.js';

/** An error reply larger than this is cut (it is only read for its message). */
const MAX_ERROR_BODY = 64 * 1024;

export function postChat(endpoint: ChatEndpoint, payload: string, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const headers = [...endpoint.head, 'content-length', String(Buffer.byteLength(payload))];
    const req = endpoint.send({ method: 'POST', headers }) as Request;
    const post = new PendingPost(req, signal, resolve, reject);
    req[POST] = post;
    req.on('response', onResponse);
    // 'close' comes once the reply is read to its end or the socket is destroyed, whichever happens.
    req.on('close', onRequestClose);
    req.on('error', onRequestError);
    signal.addEventListener('abort', post, { once: true });
    req.end(payload);
  });
}

/*
 * The request's listeners are shared functions that find their call on the request, and the call itself is the
 * signal's listener (handleEvent): a reply that streams for minutes keeps one small object here, not a closure
 * per listener (nor, through their context, the request body).
 */
const POST = Symbol('pending chat post');
type Request = ClientRequest & { [POST]?: PendingPost };

class PendingPost {
  constructor(
    readonly req: ClientRequest,
    readonly signal: AbortSignal,
    readonly resolve: (res: IncomingMessage) => void,
    readonly reject: (error: unknown) => void,
  ) {}

  /** The signal aborted: the request (and the reply it may be streaming) is destroyed. */
  handleEvent(): void {
    this.req.destroy(this.signal.reason);
  }
}

function onResponse(this: Request, res: IncomingMessage): void {
  const post = this[POST]!;
  const status = res.statusCode ?? 0;
  if (status >= 200 && status < 300) return post.resolve(res);
  errorOf(res, status).then(post.reject, post.reject);
}

function onRequestClose(this: Request): void {
  const post = this[POST]!;
  post.signal.removeEventListener('abort', post);
}

function onRequestError(this: Request, error: NodeJS.ErrnoException): void {
  const post = this[POST]!;
  if (post.signal.aborted) return post.reject(post.signal.reason);
  // Before a status, every failure is the connection's: the SDK retried all of them ("Cannot connect to API").
  post.reject(new ChatCallError(`Cannot connect to API: ${error.message}`, undefined, true, {}, { cause: error }));
}

/** The SDK's rule: the provider's `error.message` when the body has one, else the status text. */
async function errorOf(res: IncomingMessage, status: number): Promise<ChatCallError> {
  const body = await readText(res, MAX_ERROR_BODY);
  let message = res.statusMessage || `HTTP ${status}`;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed?.error?.message === 'string') message = parsed.error.message;
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): the status text says enough.
  }
  return new ChatCallError(message, status, isRetryableStatus(status), res.headers);
}

/** The whole body as text (at most `limit` characters kept); rejects if the connection breaks first. */
export function readText(res: IncomingMessage, limit = Infinity): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (text.length < limit) text += chunk;
    });
    res.once('end', () => resolve(text.length > limit ? text.slice(0, limit) : text));
    res.on('error', reject);
    res.once('close', () => {
      if (!res.complete) reject(new ChatCallError('Cannot connect to API: the connection closed before the reply ended', undefined, true));
    });
  });
}
