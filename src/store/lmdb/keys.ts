/** Key helpers for ordered-binary array keys. */

/** Upper bound for a prefix scan: strings and numbers in the next position all sort below it. */
export const HIGH = '\uffff';

/** Where a database that shares msgpack structures keeps them (a symbol key: range scans never meet it). */
export const SHARED_STRUCTURES = Symbol.for('structures');

/** LMDB keys cannot hold null; the shared (owner-less) scope is the empty string. */
export const owner = (userId: string | null): string => userId ?? '';

export function prefixRange(...prefix: (string | number)[]) {
  return { start: prefix, end: [...prefix, HIGH] };
}
