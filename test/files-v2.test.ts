/**
 * v2 files through the real edge: @datastax/langflow-client's files.upload() and files.list(), downloads, renames
 * and deletes with fetch, the bad inputs (no multipart, wrong field, two files, an image, a name with ../ or NUL,
 * oversize, a client leaving mid-upload), another user's ids (404), and a run reading an uploaded file by its path.
 */
import { LangflowClient } from '@datastax/langflow-client';
import { unzipSync } from 'fflate';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import t from 'tap';
import { createUserWithKey } from './support/auth.js';
import { untilInDir } from './support/dir-watch.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
t.before(async () => {
  server = await startTestServer({ MAX_FILE_SIZE_UPLOAD: '1' });
});
t.teardown(() => server.close());

const form = (parts: [field: string, content: string | Uint8Array, name: string][]) => {
  const body = new FormData();
  for (const [field, content, name] of parts) body.append(field, new Blob([content as BlobPart]), name);
  return body;
};
const upload = (body: FormData | string, key?: string) => server.request('/api/v2/files', { method: 'POST', body, key, headers: typeof body === 'string' ? { 'content-type': 'text/plain' } : undefined });
/** What the files folder holds for a scope: no half-written file may ever stay. */
const onDisk = (scope: string) => readdirSync(join(server.dataDir, 'files', scope), { withFileTypes: true }).map((e) => e.name).sort();

t.test('langflow-client uploads and lists; the record and the bytes agree', async (t) => {
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const uploaded = await client.files.upload(new File(['Opening hours: 9 to 5.'], 'faq.md'));
  const owner = server.services.superuserId;
  t.match(uploaded, { name: 'faq', size: 22, provider: null });
  t.equal(uploaded.path, `${owner}/${uploaded.id}.md`, 'path = <user_id>/<file_id>.<ext>');
  const again = await client.files.upload(new File(['second'], 'faq.md'));
  t.equal(again.name, 'faq (1)', 'a repeated name is numbered as in Langflow');
  const listed = await client.files.list();
  t.same(listed.map((f) => f.name).sort(), ['faq', 'faq (1)']);
  t.ok(listed.every((f) => f.created_at instanceof Date && f.user_id === owner));

  const download = await server.request(`/api/v2/files/${uploaded.id}`);
  t.equal(download.status, 200);
  t.equal(await download.text(), 'Opening hours: 9 to 5.');
  t.match(download.headers.get('content-disposition'), /attachment; filename="faq.md"/);
  t.same(await (await server.request(`/api/v2/files/${uploaded.id}?return_content=true`)).json(), 'Opening hours: 9 to 5.');

  const renamed = await server.request(`/api/v2/files/${uploaded.id}?name=hours`, { method: 'PUT' });
  t.match(await renamed.json(), { id: uploaded.id, name: 'hours', path: uploaded.path });
  for (const name of ['', '   ', '../x', 'a/b', 'x'.repeat(300)]) {
    const bad = await server.request(`/api/v2/files/${uploaded.id}?name=${encodeURIComponent(name)}`, { method: 'PUT' });
    t.equal(bad.status, 422, `rename to ${JSON.stringify(name.slice(0, 20))}: 422`);
    t.equal((await bad.json()).detail[0].loc.join('.'), 'query.name');
  }

  const deleted = await server.request(`/api/v2/files/${again.id}`, { method: 'DELETE' });
  t.same(await deleted.json(), { detail: 'File faq (1) deleted successfully' });
  t.equal((await server.request(`/api/v2/files/${again.id}`)).status, 404);
  t.same(onDisk(owner), [`${uploaded.id}.md`], 'its bytes are gone too');
});

t.test('a run reads an uploaded file by its v2 path', async (t) => {
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const uploaded = await client.files.upload(new File(['The answer is 42.'], 'notes.txt'));
  const reader = flow('Reader', [node('ChatInput-in001', 'ChatInput', {}), node('File-f0001', 'File', { path: { type: 'file', value: '', file_path: [] } }), node('ChatOutput-out01', 'ChatOutput', {})], [edge('File-f0001', 'message', 'ChatOutput-out01', 'input_value')]);
  const created = await createFlow(server, reader);
  const response = await client.flow(created.id).run('x', { tweaks: { 'File-f0001': { path: uploaded.path } } });
  t.equal(response.chatOutputText(), 'The answer is 42.');
  const byId = await client.flow(created.id).run('x', { tweaks: { 'File-f0001': { path: uploaded.id } } });
  t.equal(byId.chatOutputText(), 'The answer is 42.', 'or by its id');
  const v2 = await server.request('/api/v2/workflows', { method: 'POST', json: { flow_id: created.id, inputs: { 'File-f0001.path': uploaded.path } } });
  t.match(JSON.stringify(await v2.json()), 'The answer is 42.', 'v2 workflows: by a flat input File-xxx.path');
});

t.test('a batch of ids downloads as one ZIP of those files (the caller\'s only)', async (t) => {
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const [a, b, c] = [await client.files.upload(new File(['alpha'], 'same.txt')), await client.files.upload(new File(['beta'], 'same.txt')), await client.files.upload(new File(['{"x":1}'], 'data.json'))];
  await server.request(`/api/v2/files/${b.id}?name=same`, { method: 'PUT' });
  const other = await createUserWithKey(server, 'zip-neighbour');
  const theirs = await (await server.request('/api/v2/files', { method: 'POST', body: form([['file', 'not yours', 'secret.txt']]), key: other.apiKey })).json();
  const res = await server.request('/api/v2/files/batch', { method: 'POST', json: [a.id, b.id, c.id, theirs.id, 'unknown'] });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/x-zip-compressed');
  t.match(res.headers.get('content-disposition'), /attachment; filename="\d{8}_\d{6}_langflow_files\.zip"/);
  const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const texts = Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]));
  t.same(texts, { 'same.txt': 'alpha', 'same (1).txt': 'beta', 'data.json': '{"x":1}' }, 'its files, a repeated name numbered, another user\'s left out');
  const none = await server.request('/api/v2/files/batch', { method: 'POST', json: [theirs.id] });
  t.equal(none.status, 404);
  t.same(await none.json(), { detail: 'No files found' });
  t.equal((await server.request('/api/v2/files/batch', { method: 'POST', json: 'not a list' })).status, 422);
});

t.test('bad uploads: each a clear 4xx, and nothing stored', async (t) => {
  const owner = server.services.superuserId;
  const before = onDisk(owner);
  const count = async () => (await (await server.request('/api/v2/files')).json()).length;
  const records = await count();
  const cases: [string, () => Promise<Response>, number, RegExp][] = [
    ['no multipart', () => upload('just text'), 422, /body.*file.*Field required/],
    ['a 0-byte body', () => server.request('/api/v2/files', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '' }), 400, /Malformed multipart body/],
    ['the wrong field', () => upload(form([['document', 'x', 'a.txt']])), 422, /body.*file.*Field required/],
    ['two files', () => upload(form([['file', 'one', 'a.txt'], ['file', 'two', 'b.txt']])), 422, /Expected one file/],
    ['an image', () => upload(form([['file', 'png bytes', 'photo.PNG']])), 400, /Image files \(png, jpg/],
    ['a NUL in the name (a malformed part header)', () => upload(form([['file', 'x', 'a\0b.txt']])), 400, /Malformed multipart body/],
    ['a name that is only a folder', () => upload(form([['file', 'x', 'dir/..']])), 400, /no name/],
    ['oversize (1 MB limit)', () => upload(form([['file', new Uint8Array(1024 * 1024 + 10), 'big.txt']])), 413, /Content size limit exceeded/],
  ];
  for (const [what, send, status, says] of cases) {
    const res = await send();
    t.equal(res.status, status, `${what}: ${status}`);
    t.match(JSON.stringify(await res.json()), says, what);
  }
  t.equal(await count(), records, 'no record was written');
  t.same(onDisk(owner), before, 'and no bytes, whole or partial');

  const sneaky = await (await upload(form([['file', 'x', '../../etc/evil.txt']]))).json();
  t.match(sneaky, { name: 'evil', path: `${owner}/${sneaky.id}.txt` }, 'a name with ../ keeps only its last part');
  const empty = await (await upload(form([['file', '', 'empty.txt']]))).json();
  t.match(empty, { name: 'empty', size: 0 }, 'an empty file is a file');
});

t.test('a client that leaves mid-upload leaves nothing', async (t) => {
  const owner = server.services.superuserId;
  const before = onDisk(owner);
  const boundary = 'cut-off-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="partial.txt"\r\nContent-Type: text/plain\r\n\r\n`;
  const userDir = join(server.dataDir, 'files', owner);
  const partial = () => onDisk(owner).some((name) => name.includes('.part-'));
  const req = request(`${server.url}/api/v2/files`, { method: 'POST', headers: { 'x-api-key': server.apiKey, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '500000' } });
  const closed = new Promise((resolve) => req.on('close', resolve));
  req.on('error', () => {});
  req.write(head + 'x'.repeat(100_000));
  // Mid-upload: the service is writing the file under its temporary name when the client goes.
  await untilInDir(userDir, partial, 'the upload\'s temporary file appearing');
  req.destroy();
  await closed;
  await untilInDir(userDir, () => !partial(), 'the temporary file going');
  // The service answers other requests after the cut, and the upload left neither record nor bytes.
  const files = (await (await server.request('/api/v2/files')).json()) as { name: string }[];
  t.notOk(files.some((f) => f.name === 'partial'), 'no record');
  t.same(onDisk(owner), before, 'no partial file');
});

t.test('another user\'s file is not found, whoever asks; their list is their own', async (t) => {
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const mine = await client.files.upload(new File(['private'], 'private.txt'));
  const other = await createUserWithKey(server, 'file-neighbour');
  for (const [method, path] of [['GET', `/api/v2/files/${mine.id}`], ['PUT', `/api/v2/files/${mine.id}?name=stolen`], ['DELETE', `/api/v2/files/${mine.id}`]]) {
    const res = await server.request(path, { method, key: other.apiKey });
    t.equal(res.status, 404, `${method} ${path.split('?')[0]}: 404`);
    t.same(await res.json(), { detail: 'File not found' });
  }
  t.same(await (await server.request('/api/v2/files', { key: other.apiKey })).json(), []);
  const batch = await server.request('/api/v2/files/batch', { method: 'DELETE', json: [mine.id], key: other.apiKey });
  t.equal(batch.status, 404);
  t.equal((await server.request(`/api/v2/files/${mine.id}`)).status, 200, 'still there for its owner');
  t.equal((await server.request('/api/v2/files/unknown-id')).status, 404);
  t.equal((await server.request(`/api/v2/files/${'x'.repeat(500)}`)).status, 422, 'an oversized id is a 422');
});

t.test('deleting a user deletes their files; DELETE /api/v2/files deletes all of one\'s own', async (t) => {
  const other = await createUserWithKey(server, 'file-leaver');
  const res = await server.request('/api/v2/files', { method: 'POST', body: form([['file', 'bye', 'bye.txt']]), key: other.apiKey });
  t.equal(res.status, 201);
  t.same(onDisk(other.id).length, 1);
  t.equal((await server.request(`/api/v1/users/${other.id}`, { method: 'DELETE' })).status, 200);
  t.same(await server.services.store.files.listByUser(other.id), [], 'no record left');
  t.throws(() => onDisk(other.id), 'no folder left');

  t.same(await (await server.request('/api/v2/files', { method: 'DELETE' })).json(), { message: 'All files deleted successfully' });
  t.same(await (await server.request('/api/v2/files')).json(), []);
});

t.test('return_content refuses a file too large to hold as one JSON string, and the plain download still works', async (t) => {
  const big = await startTestServer({ MAX_FILE_SIZE_UPLOAD: '64' });
  t.teardown(() => big.close());
  const size = 33 * 1024 * 1024;
  const stored = await (await big.request('/api/v2/files', { method: 'POST', body: form([['file', new Uint8Array(size), 'big.txt']]) })).json();
  const refused = await big.request(`/api/v2/files/${stored.id}?return_content=true`);
  t.equal(refused.status, 413);
  t.match((await refused.json()).detail, /too large to return as content.*without return_content/);
  const plain = await big.request(`/api/v2/files/${stored.id}`);
  t.equal((await plain.arrayBuffer()).byteLength, size);
});
