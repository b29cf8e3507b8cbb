/**
 * One POST of a chat-completions body over node:http(s): resolves with the response once a 2xx status arrives,
 * rejects with a ChatCallError for an error status (the provider's `error.message`) or a connection failure, and
 * with the signal's reason when the signal aborts. No fetch and no WHATWG streams: the reply is the socket's own
 * IncomingMessage, read by whoever called. The signal keeps the socket until the reply ends, so aborting a run
 * mid-stream closes the connection and the model server sees its request cancelled.
 */
import type { IncomingMessage } from 'node:http';
import { ChatCallError, isRetryableStatus } from './call-error.js';
import type { ChatEndpoint } from './endpoint.js';

/** An error reply larger than this is cut (it is only read for its message). */
const MAX_ERROR_BODY = 64 * 1024;

export function postChat(endpoint: ChatEndpoint, payload: string, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const headers = { ...endpoint.headers, 'content-length': String(Buffer.byteLength(payload)) };
    const req = endpoint.send({ method: 'POST', headers }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) return resolve(res);
      errorOf(res, status).then(reject, reject);
    });
    const onAbort = () => req.destroy(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // 'close' comes once the reply is read to its end or the socket is destroyed, whichever happens.
    req.once('close', () => signal.removeEventListener('abort', onAbort));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (signal.aborted) return reject(signal.reason);
      // Before a status, every failure is the connection's: the SDK retried all of them ("Cannot connect to API").
      reject(new ChatCallError(`Cannot connect to API: ${error.message}`, undefined, true, {}, { cause: error }));
    });
    req.end(payload);
  });
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
