import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runCli, serveProcess } from './support/process.js';

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('serve prints its address and the generated superuser password; data survives SIGKILL', async (t) => {
  const dir = tempDir(t);
  const env = { FLOWSVC_PORT: '0', FLOWSVC_DATA_DIR: dir, FLOWSVC_LOG_LEVEL: 'warn' };

  const first = await serveProcess(env);
  t.match(first.output(), /superuser "langflow" created with password: \S+/, 'a generated password is printed once');
  const password = /password: (\S+)/.exec(first.output())![1];
  const login = await fetch(`${first.url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'langflow', password }).toString(),
  });
  t.equal(login.status, 200, 'the printed password logs in');
  const { access_token } = await login.json();
  const keyRes = await fetch(`${first.url}/api/v1/api_key/`, { method: 'POST', headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }, body: '{"name":"k"}' });
  const key = (await keyRes.json()).api_key;
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));

  const second = await serveProcess(env);
  t.teardown(() => second.child.kill('SIGKILL'));
  t.notMatch(second.output(), /created with password/, 'the password is not printed again');
  const me = await fetch(`${second.url}/api/v1/users/whoami`, { headers: { 'x-api-key': key } });
  t.equal(me.status, 200, 'a key created before SIGKILL still works');
  t.equal((await me.json()).username, 'langflow');
});

t.test('api-key create prints a working key', async (t) => {
  const dir = tempDir(t);
  const env = { FLOWSVC_DATA_DIR: dir, FLOWSVC_PORT: '0', FLOWSVC_SUPERUSER_PASSWORD: 'pw', FLOWSVC_LOG_LEVEL: 'warn' };
  const created = await runCli(['api-key', 'create'], env);
  t.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim();
  t.match(key, /^sk-[A-Za-z0-9_-]{43}$/);

  const server = await serveProcess(env);
  t.teardown(() => server.child.kill('SIGKILL'));
  const me = await fetch(`${server.url}/api/v1/users/whoami`, { headers: { 'x-api-key': key } });
  t.equal(me.status, 200);
  t.equal((await me.json()).is_superuser, true);
});

t.test('a bad configuration value stops start-up with a message naming the variable', async (t) => {
  const dir = tempDir(t);
  const result = await runCli(['serve'], { FLOWSVC_DATA_DIR: dir, FLOWSVC_PORT: 'not-a-port' });
  t.equal(result.code, 2);
  t.match(result.stderr, /FLOWSVC_PORT/);
  const bool = await runCli(['serve'], { FLOWSVC_DATA_DIR: dir, FLOWSVC_AUTO_LOGIN: 'maybe' });
  t.equal(bool.code, 2);
  t.match(bool.stderr, /FLOWSVC_AUTO_LOGIN/);
});

t.test('unknown commands print usage and fail', async (t) => {
  const result = await runCli(['frobnicate'], {});
  t.equal(result.code, 2);
  t.match(result.stdout, /usage: flowsvc/);
});

t.test('run executes an exported flow once and prints the chat output', async (t) => {
  const dir = tempDir(t);
  const { writeFileSync } = await import('node:fs');
  const { echoFlow, flow, node } = await import('./support/langflow-json.js');
  const file = join(dir, 'echo.json');
  writeFileSync(file, JSON.stringify(echoFlow()));
  const result = await runCli(['run', file, '--input', 'hello from the cli'], {});
  t.equal(result.code, 0, result.stderr);
  t.equal(result.stdout, 'hello from the cli\n');

  const broken = join(dir, 'broken.json');
  writeFileSync(broken, JSON.stringify(flow('Broken', [node('X-1', 'NoSuchComponent')], [])));
  const failed = await runCli(['run', broken, '--input', 'x'], {});
  t.not(failed.code, 0);
  t.match(failed.stderr, /X-1.*NoSuchComponent/, 'an invalid flow says which node is wrong');
});
