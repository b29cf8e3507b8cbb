/**
 * What can go wrong in a chat-completions call, in the shape provider-error.ts turns into the messages the AI SDK
 * path gave: an HTTP error status with the provider's own message, a server that could not be reached, or a
 * reply that broke off or made no sense.
 */

/** The server answered with an error status, or could not be reached (`status` undefined). */
export class ChatCallError extends Error {
  override name = 'ChatCallError';
  constructor(
    message: string,
    readonly status: number | undefined,
    /** Worth another attempt: 408, 409, 429, 5xx and connection failures (the SDK's rule). */
    readonly retryable: boolean,
    /** The error reply's headers (retry-after, retry-after-ms), lower-case names. */
    readonly headers: Record<string, string | string[] | undefined> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The reply arrived but is unusable: a malformed chunk, an `error` object in the stream, a cut-off stream. */
export class ChatReplyError extends Error {
  override name = 'ChatReplyError';
}

export const isRetryableStatus = (status: number): boolean => status === 408 || status === 409 || status === 429 || status >= 500;
