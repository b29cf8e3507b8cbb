/**
 * Names of uploaded files: what a client sends is cut to its last path segment, without NUL or control
 * characters, bounded; a name the scope already holds becomes `name (1)`, `name (2)`, ... as in Langflow.
 */
import { extname } from 'node:path';
import { NAME_MAX_CHARS } from '../../../protocol/limits.js';

/** The extension, lower-case and without its dot ('' when none), and the name before it. */
export function splitName(name: string): { root: string; extension: string } {
  const ext = extname(name);
  // ".env" is a name, not an extension.
  if (ext === '' || ext === name) return { root: name, extension: '' };
  return { root: name.slice(0, -ext.length), extension: ext.slice(1).toLowerCase() };
}

/** A client's file name made safe to keep: no folders, no NUL or control characters, at most `max` characters. */
export function sanitiseName(raw: string, max = NAME_MAX_CHARS): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const name = clean === '.' || clean === '..' ? '' : clean;
  if (name.length <= max) return name;
  const { root, extension } = splitName(name);
  const tail = extension ? `.${extension}` : '';
  // An extension longer than the bound itself is cut too: the name must fit wherever it is used.
  return (root.slice(0, Math.max(1, max - tail.length)) + tail).slice(0, max);
}

/** `root`, or `root (n)` with n one past the highest already taken, when `taken` holds it. */
export function uniqueName(root: string, taken: readonly string[]): string {
  if (!taken.includes(root)) return root;
  const numbered = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\((\\d+)\\)$`);
  const highest = taken.reduce((max, name) => Math.max(max, Number(numbered.exec(name)?.[1] ?? 0)), 0);
  return `${root} (${highest + 1})`;
}

/** Langflow's v1 prefix, `YYYY-MM-DD_HH-MM-SS` (its local time; ours is UTC, the same on every host). */
export function timestamp(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
}

/** `name`, or `root (n).ext` when `taken` (whole names, extensions included) already holds it. */
export function uniqueFileName(name: string, taken: readonly string[]): string {
  const { root, extension } = splitName(name);
  const tail = extension ? extname(name) : '';
  const roots = taken.filter((other) => other.endsWith(tail) && splitName(other).extension === extension).map((other) => other.slice(0, other.length - tail.length));
  return uniqueName(root, roots) + tail;
}

/**
 * `name` cut, before its extension, to at most `maxBytes` bytes of UTF-8: a name kept on disk as it is must fit
 * the file system's bound (255 bytes a name), whatever its script.
 */
export function fitBytes(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  const { root, extension } = splitName(name);
  const tail = extension ? extname(name) : '';
  let kept = '';
  let room = maxBytes - Buffer.byteLength(tail);
  for (const char of root) {
    room -= Buffer.byteLength(char);
    if (room < 0) break;
    kept += char;
  }
  return kept ? kept + tail : Buffer.from(name).subarray(0, maxBytes).toString('utf8').replace(/\uFFFD+$/, '');
}
