/**
 * A data dir checked before anything is opened in it: it exists or can be made, it is a directory, and this user
 * can write there (a probe file is made and removed, since permission bits do not tell what ACLs, read-only mounts
 * and root squashing decide). Each failure is one line naming the setting (environment-error.ts).
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { directoryError, EnvironmentError } from './environment-error.js';

/** Makes `dir` if it is missing (`create`), checks it is a writable directory, and answers its absolute path. */
export function checkWritableDir(setting: string, dir: string, create = true): string {
  const absolute = resolve(dir);
  try {
    if (create) mkdirSync(absolute, { recursive: true });
    if (!statSync(absolute).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    const probe = join(absolute, `.write-check-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    throw directoryError(setting, dir, error);
  }
  return absolute;
}

/** The folders runs may read (FLOWSVC_FILE_READ_DIRS) exist and are folders: a typo is told at start, not at a run. */
export function checkReadableDirs(setting: string, dirs: string[]): void {
  for (const dir of dirs) {
    const stat = statSync(dir, { throwIfNoEntry: false });
    if (!stat) throw new EnvironmentError(`${setting}=${dirs.join(',')}: ${dir} does not exist`);
    if (!stat.isDirectory()) throw new EnvironmentError(`${setting}=${dirs.join(',')}: ${dir} is not a directory`);
  }
}
