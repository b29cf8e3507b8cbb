/** Key helpers for ordered-binary array keys. */

/**
 * Upper bound for a prefix scan: numbers and strings in the next position sort below it. Keys are UTF-8, so the
 * highest code point, not U+FFFF: a string starting with an emoji (F0 ...) sorted above '\uffff' (EF BF BF) and
 * fell out of every scan. Only a string starting with U+10FFFF itself followed by more still sorts above.
 */
export const HIGH = '\u{10FFFF}';

/** Where a database that shares msgpack structures keeps them (a symbol key: range scans never meet it). */
export const SHARED_STRUCTURES = Symbol.for('structures');

/** LMDB keys cannot hold null; the shared (owner-less) scope is the empty string. */
export const owner = (userId: string | null): string => userId ?? '';

export function prefixRange(...prefix: (string | number)[]) {
  return { start: prefix, end: [...prefix, HIGH] };
}
