/**
 * flowsvc service processes sharing one PostgreSQL database, as several machines behind a load balancer would: each
 * its own process, port and data dir, all on the same `FLOWSVC_DATABASE_URL`. Killed and cleaned up when the test ends.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { serveProcess } from '../../test/support/process.js';

/** The superuser's configured key, valid on every instance. */
/** Several processes loading the TypeScript tree at once on two shared cores take a while. */
const START_MS = 120_000;

export const SUPERUSER_KEY = 'sk-cluster-test-key-0123456789abcdefghijklmnop';

export interface Instance {
  url: string;
  child: ChildProcess;
  /** A plain fetch to this instance, as the superuser unless `key` says otherwise (null: no key). */
  call(path: string, init?: { method?: string; json?: unknown; key?: string | null; headers?: Record<string, string> }): Promise<Response>;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** Resolves once the process has ended, however (a fault point kills it itself), with the signal that ended it. */
  exited(): Promise<NodeJS.Signals | null>;
  /** What the process has printed so far. */
  output(): string;
}

export async function startInstance(t: Test, databaseUrl: string, env: Record<string, string> = {}): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-cluster-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const started = await serveProcess({
    FLOWSVC_PORT: '0',
    FLOWSVC_DATA_DIR: dataDir,
    FLOWSVC_DATABASE_URL: databaseUrl,
    FLOWSVC_LOG_LEVEL: 'warn',
    FLOWSVC_API_KEY: SUPERUSER_KEY,
    ...env,
  }, START_MS);
  const { child, url } = started;
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  };
  t.teardown(kill);
  const exited = () =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve(child.signalCode)
      : new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  return {
    url,
    child,
    kill,
    exited,
    output: started.output,
    call: (path, init = {}) => {
      const key = init.key === undefined ? SUPERUSER_KEY : init.key;
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}), ...init.headers };
      return fetch(`${url}${path}`, { method: init.method ?? 'GET', headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
    },
  };
}

/** `count` instances started at once on one database (their start-ups, migrations included, race). */
export function startInstances(t: Test, databaseUrl: string, count: number, env: Record<string, string> = {}): Promise<Instance[]> {
  return Promise.all(Array.from({ length: count }, () => startInstance(t, databaseUrl, env)));
}

/** The JSON body of a reply that must have `status`; otherwise fails with what came back. */
export async function expectJson(res: Response, status: number): Promise<any> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}
