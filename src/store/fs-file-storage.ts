/**
 * FileStorage on the local disk, under the data dir's `files/`. A put streams to a temporary name in the same
 * folder and renames it once complete and flushed, so a file is either whole under its name or absent: an
 * aborted upload, one over its limit, or a process killed mid-write leaves at most a `.part` file, which the
 * next start removes.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileTooLargeError, type FileStorage } from './file-storage.js';

const PART = '.part-';
/** Reads go out in large pieces (each one waits for the socket to drain); writes need less to keep the disk busy. */
const READ_CHUNK = 1 << 20;
const WRITE_CHUNK = 1 << 18;

export function fsFileStorage(root: string): FileStorage & { sweepPartials(): Promise<number> } {
  /** The path of a key; a key is ours (ids and sanitised names), checked anyway so that none leaves the root. */
  const pathOf = (key: string) => {
    const path = normalize(join(root, key));
    if (!path.startsWith(root + sep) || key.includes('\0') || key.includes(PART)) throw new Error(`bad file key ${JSON.stringify(key)}`);
    return path;
  };

  return {
    async put(key, source, limit) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Named apart from the file: a long name plus a suffix could pass the file system's 255-byte bound.
      const part = join(dirname(path), `${PART}${randomUUID()}`);
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.byteLength;
          done(size > limit ? new FileTooLargeError(`over ${limit} bytes`) : null, chunk);
        },
      });
      // Large writes: fs streams default to 16 KB, a syscall and a callback each.
      const out = createWriteStream(part, { flush: true, highWaterMark: WRITE_CHUNK });
      try {
        await pipeline(source, counter, out);
        await rename(part, path);
        return size;
      } catch (error) {
        await rm(part, { force: true });
        throw error;
      }
    },
    async get(key) {
      const path = pathOf(key);
      const found = await stat(path).catch(() => undefined);
      return found?.isFile() ? createReadStream(path, { highWaterMark: READ_CHUNK }) : undefined;
    },
    async size(key) {
      const found = await stat(pathOf(key)).catch(() => undefined);
      return found?.isFile() ? found.size : undefined;
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async deleteScope(scope) {
      await rm(pathOf(scope), { recursive: true, force: true });
    },
    async list(scope) {
      const names = await readdir(pathOf(scope)).catch(() => [] as string[]);
      return names.filter((name) => !name.includes(PART));
    },
    /** Removes what interrupted puts left (their `.part` files); call at start-up. */
    async sweepPartials() {
      let removed = 0;
      const scopes = await readdir(root, { withFileTypes: true }).catch(() => []);
      for (const scope of scopes.filter((entry) => entry.isDirectory())) {
        for (const name of await readdir(join(root, scope.name)).catch(() => [] as string[])) {
          if (!name.includes(PART)) continue;
          await rm(join(root, scope.name, name), { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
