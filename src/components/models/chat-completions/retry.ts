/**
 * Retries as the AI SDK did (ai@5 retryWithExponentialBackoffRespectingRetryHeaders), so flows that relied on it
 * behave the same: `maxRetries` more attempts (default 2) for retryable errors only (408, 409, 429, 5xx,
 * connection failures), waiting 2 s, then 4 s, 8 s...; a `retry-after-ms` or `retry-after` (seconds or an HTTP
 * date) header wins when it asks for less than a minute (or less than the backoff). The last attempt's error is
 * what the caller sees. An abort stops at once, also during a wait.
 */
import { ChatCallError } from './call-error.js';

const INITIAL_DELAY_MS = 2000;
const BACKOFF_FACTOR = 2;

export async function withRetries<T>(attempt: () => Promise<T>, maxRetries: number | undefined, signal: AbortSignal): Promise<T> {
  const retries = maxRetries ?? 2;
  let backoffMs = INITIAL_DELAY_MS;
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (!(error instanceof ChatCallError) || !error.retryable || tried > retries) throw error;
      await wait(retryDelayMs(error, backoffMs), signal);
      backoffMs *= BACKOFF_FACTOR;
    }
  }
}

function retryDelayMs(error: ChatCallError, backoffMs: number): number {
  let ms: number | undefined;
  const afterMs = header(error, 'retry-after-ms');
  if (afterMs) {
    const value = parseFloat(afterMs);
    if (!Number.isNaN(value)) ms = value;
  }
  const after = header(error, 'retry-after');
  if (after && ms === undefined) {
    const seconds = parseFloat(after);
    ms = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < 60_000 || ms < backoffMs) ? ms : backoffMs;
}

function header(error: ChatCallError, name: string): string | undefined {
  const value = error.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
