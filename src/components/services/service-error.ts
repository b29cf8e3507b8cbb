/**
 * A hosted service's failure, worded for the person running the flow and naming the service: "Needle refused the
 * API key (401)", "Needle did not answer within 30 s". As an agent tool's failure, this text is what the model
 * reads back. The status and Retry-After travel along for the callers that poll.
 */
import { ComponentError } from '../component.error.js';

export class ServiceError extends ComponentError {
  override name = 'ServiceError';
  constructor(
    message: string,
    /** The service's HTTP status, when it answered. */
    readonly status?: number,
    /** Seconds the service asked to wait (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const DETAIL_LIMIT = 300;

/** The error a non-2xx answer becomes: what the service said, shortened, after who said it. */
export function statusError(service: string, status: number, headers: Headers, body: string): ServiceError {
  if (status === 401 || status === 403) return new ServiceError(`${service} refused the API key (${status})`, status);
  if (status === 429) {
    const retryAfter = retryAfterSeconds(headers.get('retry-after'));
    const when = retryAfter === undefined ? '' : `: retry after ${retryAfter} s`;
    return new ServiceError(`${service} is limiting requests (429)${when}`, status, retryAfter);
  }
  const detail = detailOf(body);
  return new ServiceError(`${service} answered ${status}${detail ? `: ${detail}` : ''}`, status);
}

/** Retry-After in seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The message inside a JSON error body (`{"error": {"message"}}`, `{"detail"}`, ...), else the text itself. */
function detailOf(body: string): string {
  let detail: unknown = body.trim();
  try {
    const parsed: unknown = JSON.parse(body);
    detail = pick(parsed) ?? detail;
  } catch {
    // Not JSON: the text as it is.
  }
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  return text.length > DETAIL_LIMIT ? `${text.slice(0, DETAIL_LIMIT)}…` : text;
}

function pick(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['error', 'message', 'detail', 'errors']) {
    const inner = record[key];
    if (typeof inner === 'string') return inner;
    if (typeof inner === 'object' && inner !== null) return pick(inner) ?? inner;
  }
  return undefined;
}
