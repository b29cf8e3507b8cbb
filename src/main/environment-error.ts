/**
 * The machine is not as a setting says it should be (a data dir that cannot be written, a port another process
 * holds, a store another service has open): exit status 1, one line naming the setting and its value, no stack.
 * Usage mistakes (a bad value, a bad argument) are ConfigError and UsageError, exit status 2.
 */
export class EnvironmentError extends Error {
  override name = 'EnvironmentError';
}

/** What a file-system error on a setting's directory means for whoever set it, as one line. */
export function directoryError(setting: string, dir: string, error: unknown): EnvironmentError {
  const code = (error as NodeJS.ErrnoException).code;
  const named = `${setting}=${dir}`;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return new EnvironmentError(`${named} is not writable by this user; set ${setting} to a directory it can write, or change its permissions`);
    case 'EROFS':
      return new EnvironmentError(`${named} is on a read-only file system; set ${setting} to a writable directory`);
    case 'ENOTDIR':
    case 'EEXIST':
      return new EnvironmentError(`${named} is a file, or lies under one, not a directory; set ${setting} to a directory`);
    case 'ENOSPC':
      return new EnvironmentError(`${named}: no space left on its device`);
    default:
      return new EnvironmentError(`${named} cannot be used: ${(error as Error).message}`);
  }
}
