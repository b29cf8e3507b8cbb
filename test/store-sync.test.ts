/** FLOWSVC_STORE_SYNC: in every mode, runs acknowledged to a client are in the history after a SIGKILL. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { echoFlow } from './support/langflow-json.js';
import { runCli, serveProcess } from './support/process.js';

const KEY = 'sk-store-sync-test-key-0123456789abcdefghijklmn';

for (const mode of ['full', 'nometa', 'off']) {
  t.test(`STORE_SYNC=${mode}: acknowledged runs survive SIGKILL`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'flowsvc-sync-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const env = { FLOWSVC_PORT: '0', FLOWSVC_DATA_DIR: dir, FLOWSVC_LOG_LEVEL: 'warn', FLOWSVC_API_KEY: KEY, FLOWSVC_STORE_SYNC: mode };
    const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };

    const first = await serveProcess(env);
    const created = await fetch(`${first.url}/api/v1/flows/`, { method: 'POST', headers, body: JSON.stringify(echoFlow()) });
    const { id } = (await created.json()) as { id: string };
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fetch(`${first.url}/api/v1/run/${id}`, { method: 'POST', headers, body: JSON.stringify({ input_value: `q${i}`, session_id: 's' }) })),
    );
    t.same(runs.map((r) => r.status), Array(20).fill(200), 'every run was acknowledged');
    // Killed the moment the last reply arrived: nothing after the acknowledgements gets a chance to write.
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await serveProcess(env);
    t.teardown(() => second.child.kill('SIGKILL'));
    const history = await fetch(`${second.url}/api/v1/monitor/messages?flow_id=${id}&session_id=s`, { headers });
    const texts = ((await history.json()) as { text: string; sender: string }[]).map((m) => `${m.sender}:${m.text}`).sort();
    const expected = Array.from({ length: 20 }, (_, i) => [`Machine:q${i}`, `User:q${i}`]).flat().sort();
    t.same(texts, expected, 'both messages of every acknowledged run are stored');
  });
}

t.test('an unknown STORE_SYNC value stops start-up naming the variable', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-sync-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const result = await runCli(['serve'], { FLOWSVC_DATA_DIR: dir, FLOWSVC_PORT: '0', FLOWSVC_STORE_SYNC: 'sometimes' });
  t.equal(result.code, 2);
  t.match(result.stderr, /FLOWSVC_STORE_SYNC/);
});
