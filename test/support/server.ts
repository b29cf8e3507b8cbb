/** Starts a real service on a free port with a temporary data dir, for black-box tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type ConfigInput } from '../../src/config.js';
import { serviceLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/main/server.js';

export const TEST_API_KEY = 'sk-test-key-for-the-suite-0123456789abcdefghij';

export interface TestServer extends RunningService {
  apiKey: string;
  dataDir: string;
  /** fetch against the server, with the test key unless `headers` says otherwise. */
  request(path: string, init?: RequestInit & { json?: unknown; key?: string | null }): Promise<Response>;
  /** Stops the server and removes its data dir. */
  close(): Promise<void>;
}

export async function startTestServer(overrides: ConfigInput = {}, dataDir?: string): Promise<TestServer> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'flowsvc-test-'));
  /** The dir made here goes with its server; one passed in is the caller's. */
  const removeMadeDir = () => {
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  };
  // FLOWSVC_TEST_HTTP_SERVER runs a test file on one adapter (test/edge-on-*.test.ts); unset, the default (auto).
  const adapter = process.env.FLOWSVC_TEST_HTTP_SERVER ?? 'auto';
  let service: RunningService;
  try {
    const config = loadConfig({}, { PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', API_KEY: TEST_API_KEY, SUPERUSER_PASSWORD: 'test-password', HTTP_SERVER: adapter, ...overrides });
    // Lines kept for /logs (FLOWSVC_ENABLE_LOG_RETRIEVAL) go to the ring only, not into the test's output.
    service = await startService(config, serviceLogger(config, false));
  } catch (error) {
    // A refused setting or a port in use: no server, so no dir left behind for it.
    removeMadeDir();
    throw error;
  }
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await service.stop();
  };
  return {
    ...service,
    apiKey: TEST_API_KEY,
    dataDir: dir,
    request(path, init = {}) {
      const { json, key, ...rest } = init;
      const headers = new Headers(rest.headers);
      const apiKey = key === undefined ? TEST_API_KEY : key;
      if (apiKey !== null && !headers.has('x-api-key')) headers.set('x-api-key', apiKey);
      if (json !== undefined) {
        headers.set('content-type', 'application/json');
        rest.body = JSON.stringify(json);
      }
      return fetch(service.url + path, { ...rest, headers });
    },
    stop,
    async close() {
      await stop();
      removeMadeDir();
    },
  };
}
