/**
 * Knowledge base names as Langflow keeps them: spaces become underscores, and what remains is a Chroma collection
 * name (3 to 63 letters, digits, `_` and `-`, starting and ending with a letter or digit). Nothing else is ever a
 * name, so no name can reach outside its user's knowledge bases (`../`, a 10 KB name, a NUL are refused as such).
 */
import { BadRequestError } from '../errors/index.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{1,61}[A-Za-z0-9]$/;

/** The stored form of a name given by a caller, or undefined when it is not one. */
export function storedName(given: string): string | undefined {
  const name = given.trim().replace(/ /g, '_');
  return NAME.test(name) ? name : undefined;
}

/** The stored form, or a 400 saying what a name may be. */
export function validName(given: string): string {
  const name = storedName(given);
  if (name) return name;
  throw new BadRequestError('Knowledge base name must be 3 to 63 characters: letters, digits, spaces, _ and -, starting and ending with a letter or digit');
}

/** How Langflow shows a stored name. */
export const shownName = (stored: string) => stored.replace(/_/g, ' ');
