/** The one place where errors become HTTP: kind -> status, body `{"detail": ...}` unless the route has its own shape. */
import { AppError, ErrorKind, MethodNotAllowedError, UnexpectedError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { Reply } from './reply.js';

const STATUS: Record<ErrorKind, number> = {
  [ErrorKind.BadRequest]: 400,
  [ErrorKind.Unauthenticated]: 401,
  [ErrorKind.Forbidden]: 403,
  [ErrorKind.NotFound]: 404,
  [ErrorKind.MethodNotAllowed]: 405,
  [ErrorKind.Timeout]: 408,
  [ErrorKind.Conflict]: 409,
  [ErrorKind.PayloadTooLarge]: 413,
  [ErrorKind.Validation]: 422,
  [ErrorKind.Unexpected]: 500,
  [ErrorKind.ExecutionFailed]: 500,
  [ErrorKind.NotImplemented]: 501,
  [ErrorKind.Unavailable]: 503,
};

export function statusOf(error: AppError): number {
  return STATUS[error.kind];
}

/** The JSON body an error is answered with, given its HTTP status (a route's `errorBody`). */
export type ErrorBody = (error: AppError, status: number) => unknown;

const detailBody: ErrorBody = (error) => ({ detail: error.detail, ...(error.code ? { code: error.code } : {}), ...error.fields });

const INTERNAL = new UnexpectedError('Internal Server Error');

export function errorReply(error: unknown, logger: Logger, body: ErrorBody = detailBody): Reply {
  if (error instanceof AppError && error.kind !== ErrorKind.Unexpected) {
    const headers: Record<string, string> = {};
    if (error instanceof MethodNotAllowedError) headers.allow = error.allowed.join(', ');
    if (error.kind === ErrorKind.Unauthenticated) headers['www-authenticate'] = 'Bearer';
    const status = statusOf(error);
    return Reply.json(body(error, status), status, headers);
  }
  logger.error({ err: error }, 'unexpected error');
  return Reply.json(body(INTERNAL, 500), 500);
}
