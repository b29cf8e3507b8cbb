/**
 * Bounds on every id and name that becomes part of a store key, written once. LMDB refuses keys over 1,978 bytes,
 * and a key holds an id beside a prefix or another id (a message is keyed by flow, session and sequence): each
 * bound leaves room for four-byte characters and the rest of its key. Past a bound the schema answers 422 naming
 * the field, before anything reaches the store.
 */
import { z } from 'zod';

/** Session ids, message, job and response ids, flow ids or names in paths, `model`, `previous_response_id`. */
export const ID_MAX_CHARS = 400;
/** Names: flows, endpoints, projects, users, API keys, variables. */
export const NAME_MAX_CHARS = 255;

const tooLong = (what: string, max: number) => `${what} must be at most ${max} characters`;

/** A string that becomes (part of) a store key as an id. */
export const BoundedId = z.string().max(ID_MAX_CHARS, tooLong('An id', ID_MAX_CHARS));
/** A string that becomes (part of) a store key as a name. */
export const BoundedName = z.string().max(NAME_MAX_CHARS, tooLong('A name', NAME_MAX_CHARS));

/** True when `value` is a string over the id bound: for ids found inside free-form records (v2 `inputs`). */
export function idTooLong(value: unknown): boolean {
  return typeof value === 'string' && value.length > ID_MAX_CHARS;
}
export const ID_TOO_LONG = tooLong('An id', ID_MAX_CHARS);

/** Items in a list of ids or records sent in one request (bulk delete, download, batch create). */
export const LIST_MAX_ITEMS = 10_000;
