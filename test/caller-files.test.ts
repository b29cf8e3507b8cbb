/**
 * A run reads only its caller's files. A `path` tweak naming a server file once returned that file to any API-key
 * holder; now the File component opens a path through the caller's FileAccess: their own v2 uploads
 * (`<user_id>/...`), v1 uploads of their flows (`<flow_id>/...`), and folders the operator lists
 * (FLOWSVC_FILE_READ_DIRS). Everything else is refused with the same words whether it exists or not.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { CallerFiles } from '../src/services/files/caller-files.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

const root = mkdtempSync(join(tmpdir(), 'flowsvc-caller-files-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const filesDir = join(root, 'files');
const listed = join(root, 'listed');
const secret = join(root, 'secret.txt');
for (const dir of [join(filesDir, 'alice'), join(filesDir, 'bob'), join(filesDir, 'flow-of-alice'), join(filesDir, 'flow-of-bob'), listed]) mkdirSync(dir, { recursive: true });
writeFileSync(secret, 'the server secret');
writeFileSync(join(listed, 'shared.txt'), 'shared');
symlinkSync(secret, join(listed, 'escape.txt'));

const fileIds: Record<string, { user_id: string; path: string }> = { 'file-of-alice': { user_id: 'alice', path: 'alice/file-of-alice.pdf' }, 'file-of-bob': { user_id: 'bob', path: 'bob/file-of-bob.pdf' } };
const owners = { flowOwner: async (id: string) => ({ 'flow-of-alice': 'alice', 'flow-of-bob': 'bob' })[id], fileById: async (id: string) => fileIds[id] };
const files = new CallerFiles(filesDir, [listed, join(root, 'not-there')], owners);
const REFUSED = /is not one of your files/;

t.test('the caller\'s own uploads, by user and by flow', async (t) => {
  t.equal(await files.open('alice/report.txt', 'alice'), join(filesDir, 'alice', 'report.txt'));
  t.equal(await files.open('flow-of-alice/123_notes.md', 'alice'), join(filesDir, 'flow-of-alice', '123_notes.md'));
  t.equal(await files.open('file-of-alice', 'alice'), join(filesDir, 'alice', 'file-of-alice.pdf'), 'a v2 file by its id');
});

t.test('another user\'s files, climbing out, server paths and odd names are refused alike', async (t) => {
  const refusedPaths = ['file-of-bob', 'no-such-file-id', 'bob/report.txt', 'flow-of-bob/1_x.md', 'unknown-flow/x.md', '../secret.txt', 'alice/../bob/x.txt', 'alice/../../secret.txt', 'report.txt', 'alice/sub/deeper.txt', secret, '/etc/passwd', 'alice/x\0.txt', ''];
  for (const path of refusedPaths) await t.rejects(files.open(path, 'alice'), { name: 'ComponentError', message: REFUSED }, JSON.stringify(path));
  const [missing, forbidden] = await Promise.all([files.open('/no/such/file.txt', 'alice').catch((e: Error) => e.message), files.open(secret, 'alice').catch((e: Error) => e.message)]);
  t.same([missing.replace('/no/such/file.txt', 'X'), forbidden.replace(secret, 'X')], [missing.replace('/no/such/file.txt', 'X'), missing.replace('/no/such/file.txt', 'X')], 'a missing file and a forbidden one read the same');
});

t.test('listed folders: their files by absolute path, never a link that leaves them', async (t) => {
  t.equal(await files.open(join(listed, 'shared.txt'), 'anyone'), join(listed, 'shared.txt'));
  await t.rejects(files.open(join(listed, 'escape.txt'), 'anyone'), { message: REFUSED }, 'a link to a file outside');
  await t.rejects(files.open(join(listed, '..', 'secret.txt'), 'anyone'), { message: REFUSED });
  await t.rejects(files.open(listed, 'anyone'), { message: REFUSED }, 'the folder itself');
  const none = new CallerFiles(filesDir, [], owners);
  await t.rejects(none.open(join(listed, 'shared.txt'), 'anyone'), { message: REFUSED }, 'no folder listed: no absolute path');
});

/** A flow whose File node feeds the Chat Output (its Raw Content as the reply). */
const readerFlow = () =>
  flow('File reader', [node('ChatInput-in001', 'ChatInput', {}), node('File-f0001', 'File', { path: { type: 'file', value: '', file_path: [] } }), node('ChatOutput-out01', 'ChatOutput', {})], [edge('File-f0001', 'message', 'ChatOutput-out01', 'input_value')]);

t.test('through /api/v1/run: a path tweak naming a server file is refused and leaks nothing; the caller\'s file is read', async (t) => {
  const server = await startTestServer({ FILE_READ_DIRS: listed });
  t.teardown(() => server.close());
  const created = await createFlow(server, readerFlow());
  const run = async (path: string) => {
    const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'x', tweaks: { 'File-f0001': { path } } } });
    return { status: res.status, text: await res.text() };
  };

  const stolen = await run(secret);
  t.equal(stolen.status, 500);
  t.match(stolen.text, REFUSED);
  t.notMatch(stolen.text, 'the server secret', 'the file\'s content is not in the reply');
  const etc = await run('/etc/passwd');
  t.equal(etc.status, 500);
  t.notMatch(etc.text, 'root:', 'nor /etc/passwd (an unknown extension: skipped before it is opened)');
  t.match((await run('../../secret.txt')).text, REFUSED);

  const other = 'another-user-id';
  mkdirSync(join(server.dataDir, 'files', other), { recursive: true });
  writeFileSync(join(server.dataDir, 'files', other, 'private.txt'), 'not yours');
  const theirs = await run(`${other}/private.txt`);
  t.match(theirs.text, REFUSED);
  t.notMatch(theirs.text, 'not yours');

  const owner = server.services.superuserId;
  mkdirSync(join(server.dataDir, 'files', owner), { recursive: true });
  writeFileSync(join(server.dataDir, 'files', owner, 'mine.txt'), 'my own notes');
  const mine = await run(`${owner}/mine.txt`);
  t.equal(mine.status, 200);
  t.match(mine.text, 'my own notes');
  t.notMatch(mine.text, server.dataDir, 'the reply names the path as given, not where the service keeps it');
  const shared = await run(join(listed, 'shared.txt'));
  t.equal(shared.status, 200, 'a listed folder is readable');
  t.match(shared.text, '"shared"');
});

t.test('FLOWSVC_FILE_READ_DIRS takes absolute folders only', async (t) => {
  await t.rejects(startTestServer({ FILE_READ_DIRS: 'relative/dir' }), /FLOWSVC_FILE_READ_DIRS.*absolute/);
});
