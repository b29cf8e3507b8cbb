/**
 * Which files a run may read for its caller (the File component's FileAccess). A path in a run request is the
 * caller's to choose, so before this an API-key holder could read any file of the server through a `path` tweak.
 * Now a path is one of:
 * - a v1 upload, `<flow_id>/<name>`: the flow must be the caller's;
 * - a v2 upload, `<user_id>/<file_id>.<ext>`: the user must be the caller;
 * - a v2 file's id: the file must be the caller's;
 * - an absolute path inside a folder the operator lists (FLOWSVC_FILE_READ_DIRS), links resolved first.
 * Anything else, another user's file and a missing one alike, is refused with the same words, naming only the path.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { ComponentError } from '../../components/component.error.js';
import type { CallersFiles } from '../../components/contract.js';

export interface FileOwners {
  /** The owner of a flow, or undefined when there is none. */
  flowOwner(flowId: string): Promise<string | undefined>;
  /** A v2 file by id: its owner and its path, or undefined. */
  fileById(id: string): Promise<{ user_id: string; path: string } | undefined>;
}

export class CallerFiles implements CallersFiles {
  private readonly readDirs: Promise<string[]>;

  constructor(
    /** The data dir's `files/` folder, where uploads are kept by flow (v1) and by user (v2). */
    private readonly filesDir: string,
    /** Absolute folders any caller may read from (the operator's choice; none by default). */
    readDirs: readonly string[],
    private readonly owners: FileOwners,
  ) {
    // A listed folder that does not exist allows nothing; its real path is what a file's is compared with.
    this.readDirs = Promise.all(readDirs.map((dir) => realpath(dir).catch(() => ''))).then((dirs) => dirs.filter(Boolean));
  }

  async open(path: string, userId: string): Promise<string> {
    if (path.includes('\0')) throw refused(path);
    if (isAbsolute(path)) return this.listed(path);
    const parts = normalize(path).split(sep);
    if (parts.length === 1 && parts[0]) {
      const file = await this.owners.fileById(parts[0]);
      if (file?.user_id === userId) return join(this.filesDir, file.path);
      throw refused(path);
    }
    if (parts.length !== 2 || parts.some((part) => part === '' || part === '.' || part === '..')) throw refused(path);
    const [scope] = parts as [string, string];
    if (scope === userId || (await this.owners.flowOwner(scope)) === userId) return join(this.filesDir, ...parts);
    throw refused(path);
  }

  private async listed(path: string): Promise<string> {
    const dirs = await this.readDirs;
    if (dirs.length === 0) throw refused(path);
    const real = await realpath(path).catch(() => undefined);
    if (real && dirs.some((dir) => isInside(dir, real))) return real;
    throw refused(path);
  }
}

const isInside = (dir: string, file: string) => {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

const refused = (path: string) => new ComponentError(`File "${path}" is not one of your files (uploads of yours, or a folder in FLOWSVC_FILE_READ_DIRS)`);
