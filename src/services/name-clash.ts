/** Langflow's answer to a unique-name clash: the store's NameTakenError becomes a 400 with Langflow's message. */
import { BadRequestError } from '../errors/index.js';
import { NameTakenError, type NameField } from '../store/name-taken.error.js';

/** One message, or one per clashing field (a field without one keeps the NameTakenError: a 409). */
export type ClashMessages = string | Partial<Record<NameField, string>>;

/** What to throw for a failed write's `error`: a clash as the 400 `messages` give, anything else as it is. */
export function clashAnswer(error: unknown, messages: ClashMessages): unknown {
  if (!(error instanceof NameTakenError)) return error;
  const message = typeof messages === 'string' ? messages : messages[error.field];
  return message === undefined ? error : new BadRequestError(message);
}

/** `write`, with a clash answered as `clashAnswer` says. */
export function clashAnswered<T>(write: Promise<T>, messages: ClashMessages): Promise<T> {
  return write.catch((error: unknown) => {
    throw clashAnswer(error, messages);
  });
}
