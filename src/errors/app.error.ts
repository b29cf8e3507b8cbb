/**
 * The error hierarchy. Domain code throws these; only the edge maps a `kind` to an HTTP status
 * (src/edge/error-reply.ts), so services never speak HTTP.
 */

/** What went wrong, independent of transport. */
export const ErrorKind = {
  BadRequest: 'bad_request',
  Unauthenticated: 'unauthenticated',
  Forbidden: 'forbidden',
  NotFound: 'not_found',
  MethodNotAllowed: 'method_not_allowed',
  Conflict: 'conflict',
  PayloadTooLarge: 'payload_too_large',
  Validation: 'validation',
  Timeout: 'timeout',
  NotImplemented: 'not_implemented',
  Unavailable: 'unavailable',
  /** A run failed while executing (a component error): the caller sees the reason, unlike Unexpected. */
  ExecutionFailed: 'execution_failed',
  Unexpected: 'unexpected',
} as const;
export type ErrorKind = (typeof ErrorKind)[keyof typeof ErrorKind];

/** Base of every error we raise on purpose. `detail` is what clients see (string or object). */
export class AppError extends Error {
  override name = 'AppError';
  /** A stable machine-readable code, sent beside `detail` when set (the v2 API's FLOW_NOT_FOUND, JOB_NOT_FOUND...). */
  code?: string;
  /** More fields answered beside `detail` (clients that know only `detail` ignore them). */
  fields?: Readonly<Record<string, unknown>>;
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly detail: unknown = message,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class BadRequestError extends AppError {
  override name = 'BadRequestError';
  constructor(message: string, detail: unknown = message) {
    super(ErrorKind.BadRequest, message, detail);
  }
}

export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(ErrorKind.NotFound, message);
  }
}

/** Missing or bad credentials where the contract answers 401 (v2 API, JWT routes). */
export class UnauthenticatedError extends AppError {
  override name = 'UnauthenticatedError';
  constructor(message: string) {
    super(ErrorKind.Unauthenticated, message);
  }
}

/** Known caller without the right, or Langflow's v1 API-key refusals (which are 403). */
export class ForbiddenError extends AppError {
  override name = 'ForbiddenError';
  constructor(message: string) {
    super(ErrorKind.Forbidden, message);
  }
}

export class ConflictError extends AppError {
  override name = 'ConflictError';
  constructor(message: string) {
    super(ErrorKind.Conflict, message);
  }
}

export class PayloadTooLargeError extends AppError {
  override name = 'PayloadTooLargeError';
  constructor(message: string) {
    super(ErrorKind.PayloadTooLarge, message);
  }
}

export class MethodNotAllowedError extends AppError {
  override name = 'MethodNotAllowedError';
  constructor(readonly allowed: string[]) {
    super(ErrorKind.MethodNotAllowed, 'Method Not Allowed');
  }
}

export class UnavailableError extends AppError {
  override name = 'UnavailableError';
  constructor(message: string, detail: unknown = message, options?: { cause?: unknown }) {
    super(ErrorKind.Unavailable, message, detail, options);
  }
}

/** A run that exceeded its allowed time (v2 sync runs answer 408). */
export class TimeoutError extends AppError {
  override name = 'TimeoutError';
  constructor(message: string) {
    super(ErrorKind.Timeout, message);
  }
}

/** Sets the error's machine-readable code and returns it: `throw withCode(new NotFoundError(...), 'X')`. */
export function withCode<E extends AppError>(error: E, code: string): E {
  error.code = code;
  return error;
}

/** A flow run that failed in a component; the message names the component. */
export class ExecutionFailedError extends AppError {
  override name = 'ExecutionFailedError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorKind.ExecutionFailed, message, message, options);
  }
}

/** A bug or an impossible state: logged with its stack, answered as a generic 500. */
export class UnexpectedError extends AppError {
  override name = 'UnexpectedError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorKind.Unexpected, message, message, options);
  }
}
