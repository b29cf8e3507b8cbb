/**
 * Waits for what a folder holds to change as a test expects (a half-written upload appearing, then going), on the
 * file system's own change events rather than by polling: checked at once, then at every event in the folder.
 */
import { watch } from 'node:fs';

export function untilInDir(dir: string, ready: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const watcher = watch(dir, () => {
      if (!ready()) return;
      done();
      resolve();
    });
    // A bound on a wait for an event, not a wait standing in for one: reached, the event never came.
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${dir}: ${what} did not happen within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      watcher.close();
    };
    // A change between the first check and the watch taking effect would otherwise be missed.
    if (ready()) {
      done();
      resolve();
    }
  });
}
