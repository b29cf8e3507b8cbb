/**
 * After a restart the service reads its stored flows and loads the heavy modules they need, before any run.
 * The flow is stored by a first service in a child process, so this process has loaded nothing before it starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { aiSdk, arquero } from '../src/components/shared/heavy-modules.js';
import { oneNodeFlow, warmedUp } from './support/heavy-flows.js';
import { serveProcess } from './support/process.js';
import { startTestServer, TEST_API_KEY } from './support/server.js';

t.test('stored flows that need a heavy module get it loaded at start-up', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-warm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = await serveProcess({ FLOWSVC_PORT: '0', FLOWSVC_DATA_DIR: dir, FLOWSVC_LOG_LEVEL: 'warn', FLOWSVC_API_KEY: TEST_API_KEY });
  const res = await fetch(`${first.url}/api/v1/flows/`, {
    method: 'POST',
    headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(oneNodeFlow('table work', 'DataOperations')),
  });
  t.equal(res.status, 201);
  await new Promise((resolve) => {
    first.child.once('exit', resolve);
    first.child.kill('SIGTERM');
  });

  t.equal(arquero.peek(), undefined, 'nothing loaded in this process yet');
  const second = await startTestServer({}, dir);
  t.teardown(() => second.close());
  await warmedUp(second);
  t.ok(arquero.peek(), 'the stored Data Operations flow had arquero loaded');
  t.equal(aiSdk.peek(), undefined, 'and nothing no stored flow needs');
});
