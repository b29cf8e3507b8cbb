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

/** A client's file name made safe to keep: no folders, no NUL or control characters, at most NAME_MAX_CHARS. */
export function sanitiseName(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const name = clean === '.' || clean === '..' ? '' : clean;
  if (name.length <= NAME_MAX_CHARS) return name;
  const { root, extension } = splitName(name);
  const tail = extension ? `.${extension}` : '';
  return root.slice(0, Math.max(1, NAME_MAX_CHARS - tail.length)) + tail;
}

/** `root`, or `root (n)` with n one past the highest already taken, when `taken` holds it. */
export function uniqueName(root: string, taken: readonly string[]): string {
  if (!taken.includes(root)) return root;
  const numbered = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\((\\d+)\\)$`);
  const highest = taken.reduce((max, name) => Math.max(max, Number(numbered.exec(name)?.[1] ?? 0)), 0);
  return `${root} (${highest + 1})`;
}
