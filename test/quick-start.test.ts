/**
 * The README's quick start, run as written so that it cannot rot: its two marked shell blocks are taken from the
 * README and run by bash, the first (the service, `npm start`) in the background, the second (a key, an upload, a
 * batch run, a streamed run, the official OpenAI client) once it listens. The environment only places things: a
 * free port, a temporary data dir, and OPENAI_BASE_URL pointing the flow's model at the local stand-in. `npm ci`,
 * the line before the blocks, is what the test suite itself runs after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startModelServer } from './support/model-server.js';

const root = join(import.meta.dirname, '..');

/** The shell block right after `<!-- quick-start: NAME -->` in the README. */
export function quickStartBlock(readme: string, name: string): string {
  const match = new RegExp(`<!-- quick-start: ${name}\\b[^>]*-->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match) throw new Error(`README.md has no quick-start block "${name}"`);
  return match[1];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function bash(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  // Its own process group, so that npm and the service under it stop with it.
  return spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
}

t.test('the quick start runs as the README writes it, and ends in a run', async (t) => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const server = quickStartBlock(readme, 'server');
  const client = quickStartBlock(readme, 'client');
  t.ok(`${server}${client}`.trim().split('\n').length < 15, 'under 15 lines of shell');

  const model = await startModelServer();
  t.teardown(() => model.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-quick-start-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  // The tests' own loaders stay out of npm and the service (NODE_OPTIONS); the key is the one the README exports.
  const env: NodeJS.ProcessEnv = { ...process.env, FLOWSVC_PORT: String(await freePort()), FLOWSVC_DATA_DIR: dataDir, OPENAI_BASE_URL: model.baseURL, NODE_OPTIONS: '' };
  delete env.OPENAI_API_KEY;

  const service = bash(server, env);
  t.teardown(() => void (service.exitCode === null && process.kill(-service.pid!, 'SIGKILL')));
  let serverOutput = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      serverOutput += chunk;
      if (/listening on http/.test(serverOutput)) resolve();
    };
    service.stdout!.on('data', onData);
    service.stderr!.on('data', onData);
    service.once('exit', (code) => reject(new Error(`the service block exited with ${code}:\n${serverOutput}`)));
  });
  t.match(serverOutput, /superuser "langflow" created with password: \S+/, 'the first start prints the password');

  const run = bash(client, env);
  let stdout = '';
  let stderr = '';
  run.stdout!.on('data', (chunk) => (stdout += chunk));
  run.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => run.once('exit', resolve));
  t.equal(code, 0, `the client block succeeds\n${stderr}`);

  const [batch, ...rest] = stdout.split('\n');
  const answer = JSON.parse(batch).outputs[0].outputs[0].results.message.text;
  t.match(answer, /^You said: .*User: Hello/s, 'the batch run answers with the model\'s reply to the prompt');
  t.match(rest.join('\n'), /"event": ?"token"/, 'the streamed run sends tokens');
  t.match(rest.join('\n'), /"event": ?"end"/, 'and ends');
  const streamEnd = stdout.lastIndexOf('"event":"end"');
  t.ok(streamEnd > 0, 'the stream has its end event');
  const printedByClient = stdout.slice(stdout.indexOf('\n', streamEnd));
  t.equal(printedByClient.split(answer).length - 1, 2, 'the OpenAI client prints the answer, then the streamed one');
  t.equal(model.chats.length, 4, 'four runs reached the model');
  t.ok(model.chats.every((chat) => chat.headers.authorization === 'Bearer sk-...'), 'with the key the service was started with (read from its environment)');
});
