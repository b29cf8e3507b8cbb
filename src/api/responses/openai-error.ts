/**
 * Errors of the responses endpoint in OpenAI's body `{"error": {message, type, code, param}}`, so an OpenAI client
 * raises its typed error (BadRequestError, NotFoundError, ...) carrying `code` and `param`. The status still
 * comes from the error's kind, as for every route.
 */
import type { OpenAIErrorBody } from '../../../protocol/responses.schema.js';
import type { ErrorBody } from '../../edge/error-reply.js';
import { AppError, ErrorKind, ValidationError } from '../../errors/index.js';
import { OpenAIStyleError } from '../../services/responses/response-errors.js';

type OpenAIErrorFields = OpenAIErrorBody['error'];

/** The route's `errorBody`: every error of the route in OpenAI's shape, auth and validation failures included. */
export const openaiErrorBody: ErrorBody = (error, status) => ({ error: fieldsOf(error, status) });

export function fieldsOf(error: AppError, status: number): OpenAIErrorFields {
  if (error instanceof OpenAIStyleError) return { message: error.message, type: error.type, code: error.code ?? null, param: error.param };
  if (error instanceof ValidationError) {
    const [first] = error.issues;
    const message = error.issues.map((issue) => `${paramOf(issue.loc) ?? 'body'}: ${issue.msg}`).join('; ');
    return { message, type: 'invalid_request_error', code: first?.type ?? null, param: first ? paramOf(first.loc) : null };
  }
  return { message: error.message, type: typeOf(error, status), code: null, param: null };
}

/** `['body', 'include', 0]` -> `include[0]`; null when the issue is about the body as a whole. */
function paramOf(loc: readonly (string | number)[]): string | null {
  const path = loc.slice(1);
  if (typeof path[0] !== 'string') return null;
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}

function typeOf(error: AppError, status: number): string {
  if (error.kind === ErrorKind.ExecutionFailed) return 'processing_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}
