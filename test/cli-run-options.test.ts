/**
 * `flowsvc run`'s options from Langflow's `lfx run`: `--tweaks JSON` sets fields as the run API's tweaks do,
 * `--file PATH` attaches files to the flow's File nodes, `--session-id ID` names the session its messages are
 * recorded under. Their mistakes are usage errors (one line, exit 2).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import { runCli } from './support/process.js';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import { startTestServer } from './support/server.js';

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-run-options-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function writeIn(dir: string, name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const fileReader = flow(
  'File reader',
  [node('ChatInput-in001', 'ChatInput', {}), node('File-f0001', 'File', { path: { type: 'file', value: '', file_path: [] } }), node('ChatOutput-out01', 'ChatOutput', {})],
  [edge('File-f0001', 'message', 'ChatOutput-out01', 'input_value')],
);

t.test('--tweaks sets fields by node id or display name', async (t) => {
  const dir = tempDir(t);
  const echo = writeIn(dir, 'echo.json', echoFlow());
  const [byId, byName] = await Promise.all([
    runCli(['run', echo, '--tweaks', '{"ChatInput-in001": {"input_value": "tweaked by id"}}'], {}),
    runCli(['run', echo, '--tweaks', '{"Chat Input": {"input_value": "tweaked by name"}}'], {}),
  ]);
  t.equal(byId.code, 0, byId.stderr);
  t.equal(byId.stdout, 'tweaked by id\n');
  t.equal(byName.stdout, 'tweaked by name\n');
});

t.test('--file attaches a file to the File node, and the flow reads it', async (t) => {
  const dir = tempDir(t);
  const reader = writeIn(dir, 'reader.json', fileReader);
  const notes = writeIn(dir, 'notes.txt', 'the attached notes');
  const result = await runCli(['run', reader, '--file', notes, '--input', 'x'], {});
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /the attached notes/);
});

t.test('--session-id records the run under that session', async (t) => {
  const dir = tempDir(t);
  const server = await startTestServer({}, dir);
  await server.close();
  const echo = writeIn(tempDir(t), 'echo.json', echoFlow());
  const result = await runCli(['run', echo, '--input', 'remember me', '--session-id', 'cli-session-1', '--data-dir', dir], {});
  t.equal(result.code, 0, result.stderr);

  const store = openLmdbStore(dir);
  t.teardown(() => store.close());
  const messages = await store.messages.scan();
  t.ok(messages.length >= 1, "the data dir holds the run's messages");
  t.ok(messages.every((message) => message.session_id === 'cli-session-1'), 'all of them in the session named');
  t.ok(messages.some((message) => message.text === 'remember me'));
});

t.test('their mistakes are one line and exit 2', async (t) => {
  const dir = tempDir(t);
  const echo = writeIn(dir, 'echo.json', echoFlow());
  const reader = writeIn(dir, 'reader.json', fileReader);
  const cases: [string, string[], RegExp][] = [
    ['tweaks that are not JSON', ['run', echo, '--tweaks', '{nope'], /--tweaks is not JSON/],
    ['tweaks that are not an object', ['run', echo, '--tweaks', '[1]'], /--tweaks must be a JSON object/],
    ['a file that is missing', ['run', reader, '--file', join(dir, 'missing.txt')], /--file \S+missing\.txt: no such file/],
    ['a file that is a folder', ['run', reader, '--file', dir], /--file \S+: not a file/],
    ['a flow without a File node', ['run', echo, '--file', echo], /the flow has no File node/],
    ['two different sessions', ['run', echo, '--session', 'a', '--session-id', 'b'], /--session and --session-id name the same thing/],
  ];
  const results = await Promise.all(cases.map(([, args]) => runCli(args, {})));
  cases.forEach(([what, , message], i) => {
    t.equal(results[i].code, 2, `${what}: exit 2`);
    t.match(results[i].stderr, /^flowsvc run: [^\n]+\n$/, `${what}: one line`);
    t.match(results[i].stderr, message, `${what}: says what is wrong`);
  });
});
