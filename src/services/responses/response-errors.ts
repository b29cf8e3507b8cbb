/**
 * Errors of the responses endpoint that carry OpenAI's `type`, `code` and `param`, so an OpenAI client raises its
 * typed error (BadRequestError, NotFoundError, ...). The status still comes from the error's kind, as for every
 * route; the body is written by the route's error body (src/api/responses/openai-error.ts).
 */
import { AppError, ErrorKind } from '../../errors/index.js';

export class OpenAIStyleError extends AppError {
  override name = 'OpenAIStyleError';
  constructor(
    kind: ErrorKind,
    message: string,
    readonly type: string,
    code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(kind, message);
    if (code) this.code = code;
  }
}

export const toolsNotSupported = () => new OpenAIStyleError(ErrorKind.BadRequest, 'Tools are not supported yet', 'invalid_request_error', 'tools_not_supported', 'tools');

export const flowNotFound = (model: string) => new OpenAIStyleError(ErrorKind.NotFound, `Flow with id '${model}' not found`, 'invalid_request_error', 'flow_not_found', 'model');

export const chatInputRequired = () =>
  new OpenAIStyleError(ErrorKind.BadRequest, 'Flow must have a ChatInput component to be compatible with OpenAI Responses API', 'processing_error', 'chat_input_required', 'model');

export const responseNotFound = (id: string) => new OpenAIStyleError(ErrorKind.NotFound, `Response with id '${id}' not found`, 'invalid_request_error', 'response_not_found', 'response_id');

export const onlyBackgroundCancels = () =>
  new OpenAIStyleError(ErrorKind.BadRequest, 'Only responses created with background set to true can be cancelled', 'invalid_request_error', 'not_cancellable', 'response_id');

/** A failed run keeps its status (from the failure table) with Langflow's error type. */
export const runFailed = (error: AppError) => new OpenAIStyleError(error.kind, error.message, 'processing_error');
