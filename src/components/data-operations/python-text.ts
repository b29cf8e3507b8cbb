/**
 * Python's string basics in code points (Python's unit; JavaScript strings count UTF-16 halves, so an emoji is one
 * character in Python and two here): whitespace as str.isspace sees it, split(), strip() and slicing.
 */

/** The characters of str.isspace(), as a regex class body (JavaScript's \s differs: it has U+FEFF, lacks \x1c-\x1f and U+0085). */
export const PY_SPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const SPACE_RUN = new RegExp(`[${PY_SPACE}]+`, 'gu');
const IS_SPACE = new RegExp(`^[${PY_SPACE}]$`, 'u');

/** str.split() without arguments: runs of whitespace separate, and the ends give no empty items. */
export function splitWhitespace(text: string): string[] {
  return text.split(SPACE_RUN).filter((part) => part !== '');
}

export function collapseWhitespace(text: string, replacement: string): string {
  return text.replace(SPACE_RUN, replacement);
}

export const isBlank = (text: string): boolean => text.replace(SPACE_RUN, '') === '';

/** str.strip / lstrip / rstrip: `chars` is a set of characters; empty means whitespace. */
export function strip(text: string, chars: string, mode: 'both' | 'left' | 'right'): string {
  const set = chars === '' ? undefined : new Set(chars);
  const strippable = (c: string) => (set ? set.has(c) : IS_SPACE.test(c));
  const points = [...text];
  let start = 0;
  let end = points.length;
  if (mode !== 'right') while (start < end && strippable(points[start])) start++;
  if (mode !== 'left') while (end > start && strippable(points[end - 1])) end--;
  return start === 0 && end === points.length ? text : points.slice(start, end).join('');
}

export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** text[:n] in Python. */
export function headCodePoints(text: string, n: number): string {
  let i = 0;
  for (let taken = 0; taken < n && i < text.length; taken++) i += isPairStart(text, i) ? 2 : 1;
  return text.slice(0, i);
}

/** text[-n:] in Python (n > 0). */
export function tailCodePoints(text: string, n: number): string {
  let i = text.length;
  for (let taken = 0; taken < n && i > 0; taken++) i -= i >= 2 && isPairStart(text, i - 2) ? 2 : 1;
  return text.slice(i);
}

function isPairStart(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
}
