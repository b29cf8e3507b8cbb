/**
 * One `flowsvc serve` per LMDB data dir. LMDB lets several processes open a store, so two services started on one
 * data dir would both run: each recovering the other's runs as its own, each with its own caches. The lock is a
 * listening Unix socket: the kernel releases it when the process ends, however it ends (SIGKILL included), so a
 * crash leaves no stale lock to clear by hand. On Linux it is an abstract socket named after the directory's device
 * and inode (no file, no path length limit, the same lock whatever path or symlink reaches the directory); elsewhere
 * a socket file in the data dir, removed when a start finds nobody listening on it. A service asked who holds the
 * lock answers its pid. `flowsvc api-key create` and `flowsvc run --data-dir` take no lock: they are meant to work
 * beside the running service, as LMDB allows.
 */
import { createConnection, createServer, type Server } from 'node:net';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from './environment-error.js';

export interface DataDirLock {
  release(): Promise<void>;
}

function lockAddress(dir: string): string {
  if (process.platform !== 'linux') return join(dir, '.serve.sock');
  const { dev, ino } = statSync(dir);
  return `\0flowsvc-serve-${dev}-${ino}`;
}

/** Holds the lock of `dir` (an existing directory) until released or the process ends; refuses if another holds it. */
export async function lockDataDir(dir: string, setting = 'FLOWSVC_DATA_DIR'): Promise<DataDirLock> {
  const address = lockAddress(dir);
  for (let attempt = 0; ; attempt++) {
    try {
      const server = await listenOn(address);
      return { release: () => new Promise<void>((done) => server.close(() => done())) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      const holder = await askHolder(address);
      if (holder !== 'nobody') {
        const who = holder === 'unknown' ? 'another flowsvc service' : `another flowsvc service (pid ${holder})`;
        throw new EnvironmentError(`${setting}=${dir} is in use by ${who}; stop it, or set ${setting} to another directory`);
      }
      // A socket file left by a service that was killed: nobody listens on it any more.
      if (attempt > 0 || address.startsWith('\0')) throw error;
      rmSync(address, { force: true });
    }
  }
}

function listenOn(address: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.end(`${process.pid}\n`));
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      // The lock never keeps the process alive on its own.
      server.unref();
      resolve(server);
    });
  });
}

/** The holder's pid; 'unknown' if it accepts but does not say (busy starting); 'nobody' if nothing listens. */
function askHolder(address: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = createConnection(address);
    const timer = setTimeout(() => finish('unknown'), 1000);
    const finish = (holder: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(holder);
    };
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => finish(/^\d+\n$/.test(answer) ? answer.trim() : 'unknown'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'nobody' : 'unknown'));
  });
}
