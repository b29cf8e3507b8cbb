/** Errors of a model call as ComponentErrors: the provider's own message and HTTP status, never a stack dump. */
import { aiSdk } from '../shared/heavy-modules.js';
import type { LanguageModelValue } from '../../values/language-model.js';
import { ComponentError } from '../component.error.js';
import { ChatCallError } from './chat-completions/call-error.js';

export class ModelProviderError extends ComponentError {
  override name = 'ModelProviderError';
  constructor(
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function providerError(error: unknown, model: LanguageModelValue): Error {
  if (error instanceof ComponentError) return error;
  // Our chat-completions client: the same wording as the SDK's errors below.
  if (error instanceof ChatCallError) return callError(error.message, error.status, model, error);
  // An SDK error can only come from a call, which loaded the SDK; without it, this is no SDK error.
  const sdk = aiSdk.peek();
  // After retries the SDK reports the last attempt's error inside a RetryError.
  const cause = sdk?.RetryError.isInstance(error) ? error.lastError : error;
  if (sdk?.APICallError.isInstance(cause)) return callError(cause.message, cause.statusCode, model, error);
  if (sdk?.NoObjectGeneratedError.isInstance(cause)) {
    return new ModelProviderError(`No structured output returned by ${model.provider} model ${model.model}: ${cause.message}`, undefined, { cause: error });
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return new ModelProviderError(`${model.provider} model ${model.model} failed: ${message}`, undefined, { cause: error });
}

function callError(message: string, status: number | undefined, model: LanguageModelValue, error: unknown): ModelProviderError {
  if (status === undefined) return new ModelProviderError(`Could not reach the ${model.provider} API at ${model.baseURL}: ${message}`, undefined, { cause: error });
  return new ModelProviderError(`${model.provider} API error ${status} (model ${model.model}): ${message}`, status, { cause: error });
}
