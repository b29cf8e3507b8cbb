import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { echoFlow, flow, node } from './support/langflow-json.js';
import { chatModelFlow, keyVariable } from './support/model-flows.js';
import { startModelServer } from './support/model-server.js';
import { runCli, serveProcess } from './support/process.js';
import { startTestServer } from './support/server.js';

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

t.test('api-key create --init prints a working key, and says which store it wrote to', async (t) => {
  const dir = tempDir(t);
  const env = { FLOWSVC_DATA_DIR: dir, FLOWSVC_PORT: '0', FLOWSVC_SUPERUSER_PASSWORD: 'pw', FLOWSVC_LOG_LEVEL: 'warn' };
  const created = await runCli(['api-key', 'create', '--init'], env);
  t.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim();
  t.match(key, /^sk-[A-Za-z0-9_-]{43}$/, 'stdout holds the key alone');
  t.match(created.stderr, `in the store in ${dir} (FLOWSVC_DATA_DIR)`, 'stderr names the data dir');

  const server = await serveProcess(env);
  t.teardown(() => server.child.kill('SIGKILL'));
  const me = await fetch(`${server.url}/api/v1/users/whoami`, { headers: { 'x-api-key': key } });
  t.equal(me.status, 200);
  t.equal((await me.json()).is_superuser, true);

  const beside = await runCli(['api-key', 'create', '--name', 'second'], env);
  t.equal(beside.code, 0, 'a key is created beside the running service, without --init');
  const second = await fetch(`${server.url}/api/v1/users/whoami`, { headers: { 'x-api-key': beside.stdout.trim() } });
  t.equal(second.status, 200, 'and the running service takes it');
});

t.test('unknown commands fail with one line naming the command', async (t) => {
  const result = await runCli(['frobnicate'], {});
  t.equal(result.code, 2);
  t.equal(result.stderr, 'flowsvc: unknown command "frobnicate" (commands: serve, api-key, run, validate, cluster; see flowsvc --help)\n');
});

t.test('run executes an exported flow once and prints the chat output', async (t) => {
  const dir = tempDir(t);
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

/** Writes `content` (JSON unless a string) to `name` in `dir`; returns the path. */
function writeIn(dir: string, name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

t.test('run: a usage mistake is one line on stderr and exit 2, never a stack trace', async (t) => {
  const dir = tempDir(t);
  const echo = writeIn(dir, 'echo.json', echoFlow());
  const missingDir = join(dir, 'no-such-dir');
  const emptyDir = join(dir, 'empty');
  mkdirSync(emptyDir);
  const cases: [string, string[], RegExp][] = [
    ['an unknown option', ['run', echo, '--bogus'], /Unknown option '--bogus'/],
    ['an option without its value', ['run', echo, '--input'], /--input <value>' argument missing/],
    ['no flow file', ['run'], /needs a flow file/],
    ['two flow files', ['run', echo, echo], /unexpected argument/],
    ['a missing file', ['run', join(dir, 'missing.json')], /missing\.json: no such file/],
    ['a file that is not JSON', ['run', writeIn(dir, 'notes.json', 'not\njson')], /notes\.json is not JSON/],
    ['JSON that is not a flow', ['run', writeIn(dir, 'list.json', [1, 2])], /list\.json is not an exported flow/],
    ['a data dir that does not exist', ['run', echo, '--data-dir', missingDir], /no flowsvc store there/],
    ['a data dir without a store', ['run', echo, '--data-dir', emptyDir], /no flowsvc store there/],
    ['an unknown api-key option', ['api-key', 'create', '--bogus'], /Unknown option '--bogus'/],
  ];
  const results = await Promise.all(cases.map(([, args]) => runCli(args, { FLOWSVC_DATA_DIR: join(dir, 'api-key-data') })));
  cases.forEach(([what, , message], i) => {
    const { code, stdout, stderr } = results[i];
    t.equal(code, 2, `${what}: exit 2`);
    t.match(stderr, message, `${what}: the message says what is wrong`);
    t.match(stderr, /^flowsvc (run|api-key): [^\n]+\n$/, `${what}: one line, naming the command`);
    t.notMatch(stderr, /^\s+at /m, `${what}: no stack trace`);
    t.equal(stdout, '', `${what}: nothing on stdout`);
  });
  t.notOk(existsSync(missingDir), 'a missing data dir is not created');
  t.same(readdirSync(emptyDir), [], 'no store is created in a data dir without one');
});

t.test('--help prints usage and exits 0; run --help documents its options and environment', async (t) => {
  const [top, runLong, runShort, serveHelp] = await Promise.all([runCli(['--help'], {}), runCli(['run', '--help'], {}), runCli(['run', '-h'], {}), runCli(['serve', '--help'], {})]);
  t.equal(top.code, 0);
  t.match(top.stdout, /usage: flowsvc <command>/);
  for (const help of [runLong, runShort]) {
    t.equal(help.code, 0, help.stderr);
    for (const documented of ['--input', '--session', '--data-dir', '--no-env', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_API_KEY', 'OPENAI_BASE_URL', 'FLOWSVC_JOB_TIMEOUT_SECONDS', 'FLOWSVC_SECRET_KEY']) {
      t.ok(help.stdout.includes(documented), `run's usage documents ${documented}`);
    }
  }
  t.equal(serveHelp.code, 0, 'serve --help exits instead of serving');
  t.match(serveHelp.stdout, /FLOWSVC_DATA_DIR/);
  t.notMatch(serveHelp.stdout, /listening/);
});

/** Chat Input -> OpenAI (its key the OPENAI_API_KEY global variable, as Langflow exports it) -> Chat Output. */
const openaiKeyFlow = (baseURL: string) =>
  chatModelFlow('Keyed', 'OpenAIModel', { model_name: 'gpt-4o-mini', openai_api_base: baseURL, max_retries: 0, api_key: keyVariable('OPENAI_API_KEY') });

t.test('run reads OPENAI_API_KEY from the environment; without it, says to set it there', async (t) => {
  const dir = tempDir(t);
  const model = await startModelServer();
  t.teardown(() => model.close());
  const file = writeIn(dir, 'keyed.json', openaiKeyFlow(model.baseURL));

  const keyed = await runCli(['run', file, '--input', 'hello model'], { OPENAI_API_KEY: 'sk-from-env' });
  t.equal(keyed.code, 0, keyed.stderr);
  t.equal(keyed.stdout, 'You said: hello model\n', 'the stand-in model\'s reply is printed');
  t.equal(model.chats.at(-1)?.headers.authorization, 'Bearer sk-from-env', 'the key sent is the environment\'s');

  const calls = model.chats.length;
  const [unset, refused] = await Promise.all([
    runCli(['run', file, '--input', 'x'], { OPENAI_API_KEY: undefined }),
    runCli(['run', file, '--input', 'x', '--no-env'], { OPENAI_API_KEY: 'sk-from-env' }),
  ]);
  for (const [what, result] of [['unset', unset], ['--no-env', refused]] as const) {
    t.equal(result.code, 1, `${what}: the run fails`);
    t.match(result.stderr, /^flowsvc run: [^\n]*Variable OPENAI_API_KEY not found[^\n]*set OPENAI_API_KEY in the environment[^\n]*\n$/, `${what}: one line naming the variable and the environment`);
    t.notMatch(result.stderr, /header|X-FLOWSVC/i, `${what}: no request headers in a local run`);
  }
  t.match(refused.stderr, /drop --no-env/, 'with --no-env, the message says the environment was not read');
  t.equal(model.chats.length, calls, 'no model call without a key');
});

t.test('run --data-dir resolves a global variable stored through the service', async (t) => {
  const dir = tempDir(t);
  const server = await startTestServer({}, dir);
  const stored = await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'OPENAI_API_KEY', value: 'sk-stored', type: 'Credential' } });
  t.equal(stored.status, 201, 'the variable is stored (sealed: a Credential)');
  await server.close();
  const model = await startModelServer();
  t.teardown(() => model.close());
  const file = writeIn(tempDir(t), 'keyed.json', openaiKeyFlow(model.baseURL));

  const result = await runCli(['run', file, '--input', 'from the store', '--data-dir', dir], { OPENAI_API_KEY: undefined });
  t.equal(result.code, 0, result.stderr);
  t.equal(result.stdout, 'You said: from the store\n');
  t.equal(model.chats.at(-1)?.headers.authorization, 'Bearer sk-stored', 'the stored credential, decrypted, is the key sent');

  const stranger = await runCli(['run', file, '--data-dir', dir], { OPENAI_API_KEY: undefined, FLOWSVC_SUPERUSER: 'nobody' });
  t.equal(stranger.code, 2, 'a data dir without the named superuser is refused');
  t.match(stranger.stderr, /no user "nobody"/);
});
