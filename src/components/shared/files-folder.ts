/** FileAccess over a folder on disk: the data dir's `files/` for a service run (see ComponentContext.files). */
import { isAbsolute, relative, resolve } from 'node:path';
import { ComponentError } from '../component.error.js';
import type { FileAccess } from '../contract.js';

/** Every run of a service uses the same folder: its FileAccess is made once, not per run. */
let last: { folder: string; access: FileAccess } | undefined;

export function filesFolder(folder: string): FileAccess {
  if (last?.folder === folder) return last.access;
  const access = newFilesFolder(folder);
  last = { folder, access };
  return access;
}

function newFilesFolder(folder: string): FileAccess {
  const root = resolve(folder);
  return {
    resolve(path) {
      if (isAbsolute(path)) return path;
      const full = resolve(root, path);
      const inside = relative(root, full);
      if (inside.startsWith('..') || isAbsolute(inside)) throw new ComponentError(`File path "${path}" leaves the files folder`);
      return full;
    },
  };
}
