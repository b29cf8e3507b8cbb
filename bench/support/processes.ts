/** Starts the servers under test as child processes and waits for their "listening on" line. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export const BENCH_API_KEY = 'sk-bench-key-0123456789abcdefghijklmnopqrstuvwxyz';

/** Children still running: killed with the bench when it is interrupted, not left serving (and loading the cores). */
const running = new Set<ChildProcess>();
let killedOnInterrupt = false;

function track(child: ChildProcess): void {
  if (!killedOnInterrupt) {
    killedOnInterrupt = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        for (const live of running) live.kill('SIGKILL');
        process.exit(130);
      });
    }
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/**
 * Runs `script` with node and resolves once it prints `listening on <url>`; `stdin` keeps a pipe to the child
 * (servers steered by commands), `cleanup` runs after it exits.
 */
export function startProcess(script: string, args: string[], env: Record<string, string> = {}, options: { stdin?: boolean; cleanup?: () => void } = {}): Promise<ServerProcess> {
  const { stdin = false, cleanup = () => {} } = options;
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'inherit'] });
  track(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      output += d;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        resolve({
          url: match[1],
          child,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => {
                cleanup();
                done();
              });
              child.kill('SIGKILL');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
}

/** The raw uWS baseline (compiled to dist/bench/support/raw-uws.js). */
export function startRawUws(): Promise<ServerProcess> {
  return startProcess(fileURLToPath(new URL('./raw-uws.js', import.meta.url)), []);
}

/** Node's own HTTP server doing the same least work, for reference (compiled to dist/bench/support/raw-node-http.js). */
export function startRawNodeHttp(): Promise<ServerProcess> {
  return startProcess(fileURLToPath(new URL('./raw-node-http.js', import.meta.url)), []);
}

/** Node's own HTTP server piping an upload to a file and streaming it back (compiled to dist/bench/support/raw-file-server.js). */
export function startRawFileServer(): Promise<ServerProcess> {
  return startProcess(fileURLToPath(new URL('./raw-file-server.js', import.meta.url)), []);
}

/**
 * The chosen stack's floor for an echo run (compiled to dist/bench/support/stack-floor.js), `store` putting both
 * messages to LMDB in a throwaway dir, `traced` a trace of each run as well, `paged` the traces gathered as the
 * service gathers them as one record, `actor` without.
 */
export function startStackFloor(kind: 'store' | 'traced' | 'paged' | 'actor', env: Record<string, string> = {}): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-floor-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  return startProcess(fileURLToPath(new URL('./stack-floor.js', import.meta.url)), [kind, dir], env, { cleanup });
}

/**
 * The real service through its CLI, with a throwaway data dir, or with `dataDir` (kept: the caller owns it, to
 * seed it beforehand or to restart on it).
 */
export function startService(env: Record<string, string> = {}, dataDir?: string): Promise<ServerProcess> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'flowsvc-bench-'));
  const bin = fileURLToPath(new URL('../../../bin/flowsvc.js', import.meta.url));
  return startProcess(bin, ['serve'], { FLOWSVC_PORT: '0', FLOWSVC_DATA_DIR: dir, FLOWSVC_LOG_LEVEL: 'warn', FLOWSVC_API_KEY: BENCH_API_KEY, ...env }, {
    cleanup: () => {
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  });
}
