/**
 * v1 files through the real edge: @datastax/langflow-client's flow(id).uploadFile(), list, download, images,
 * delete, the deprecated /api/v1/upload, another user's flow (404), bad names (422), a run reading an upload by
 * its file_path, a flow's deletion taking its files, and the profile pictures.
 */
import { LangflowClient } from '@datastax/langflow-client';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import t from 'tap';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
t.before(async () => {
  server = await startTestServer({ MAX_FILE_SIZE_UPLOAD: '1' });
});
t.teardown(() => server.close());

const form = (content: string | Uint8Array, name: string) => {
  const body = new FormData();
  body.append('file', new Blob([content as BlobPart]), name);
  return body;
};
const onDisk = (scope: string) => readdirSync(join(server.dataDir, 'files', scope)).sort();
/** A request whose path is sent as written: a URL (fetch's, or a string given to request) resolves `..` and `%2E%2E`. */
const raw = (method: string, path: string) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const { hostname, port } = new URL(server.url);
    const req = request({ hostname, port, path, method, headers: { 'x-api-key': server.apiKey } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end();
  });
const STAMPED = /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_/;

t.test('langflow-client uploads to a flow; list, download and delete agree', async (t) => {
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const { id } = await createFlow(server, echoFlow('Files v1'));
  const before = Date.now();
  const uploaded = await client.flow(id).uploadFile(new File(['Opening hours: 9 to 5.'], 'faq.md'));
  const after = Date.now();
  t.equal(uploaded.flowId, id);
  t.match(uploaded.filePath, new RegExp(`^${id}/\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}_faq\\.md$`), 'file_path = <flow_id>/<timestamp>_<name>');
  const stored = uploaded.filePath.slice(id.length + 1);
  const [, day, time] = /^(\d{4}-\d{2}-\d{2})_(\d{2}-\d{2}-\d{2})_/.exec(stored)!;
  const stamped = Date.parse(`${day}T${time!.replace(/-/g, ':')}Z`);
  t.ok(stamped >= Math.floor(before / 1000) * 1000 && stamped <= after, 'the timestamp is the upload time (UTC, to the second)');

  t.same(await (await server.request(`/api/v1/files/list/${id}`)).json(), { files: [stored] });
  t.same(onDisk(id), [stored], 'kept under the flow id');

  const download = await server.request(`/api/v1/files/download/${id}/${encodeURIComponent(stored)}`);
  t.equal(download.status, 200);
  t.equal(download.headers.get('content-type'), 'text/markdown');
  t.match(download.headers.get('content-disposition'), new RegExp(`^attachment; filename="${stored}"`));
  t.equal(await download.text(), 'Opening hours: 9 to 5.');
  const unknown = await client.flow(id).uploadFile(new File(['?'], 'blob.zzqq'));
  const typeless = await server.request(`/api/v1/files/download/${id}/${encodeURIComponent(unknown.filePath.split('/')[1]!)}`);
  t.equal(typeless.headers.get('content-type'), 'application/octet-stream', 'an unknown extension is plain bytes');
  await typeless.arrayBuffer();

  const deleted = await server.request(`/api/v1/files/delete/${id}/${encodeURIComponent(stored)}`, { method: 'DELETE' });
  t.same(await deleted.json(), { message: `File ${stored} deleted successfully` });
  t.equal((await server.request(`/api/v1/files/download/${id}/${encodeURIComponent(stored)}`)).status, 404);
  const again = await server.request(`/api/v1/files/delete/${id}/${encodeURIComponent(stored)}`, { method: 'DELETE' });
  t.equal(again.status, 404);
  t.same(await again.json(), { detail: 'File not found' });
  t.notOk(onDisk(id).includes(stored), 'its bytes are gone');
});

t.test('the same name twice in one second is numbered, never overwritten', async (t) => {
  const { id } = await createFlow(server, echoFlow('Twice'));
  const send = (content: string) => server.request(`/api/v1/files/upload/${id}`, { method: 'POST', body: form(content, 'same.txt') });
  // Concurrent and sequential alike; a second boundary between them may give a new timestamp, so compare contents.
  const replies = await Promise.all([send('one'), send('two'), send('three')]);
  const paths = await Promise.all(replies.map(async (res) => ((await res.json()) as { file_path: string }).file_path));
  t.same(replies.map((res) => res.status), [201, 201, 201]);
  t.equal(new Set(paths).size, 3, 'three different paths');
  const contents = await Promise.all(paths.map(async (path) => (await server.request(`/api/v1/files/download/${id}/${encodeURIComponent(path.split('/')[1]!)}`)).text()));
  t.same(contents, ['one', 'two', 'three'], 'each path holds its own upload');
  for (const path of paths) t.match(path.split('/')[1], /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_same( \(\d\))?\.txt$/);
});

t.test('images: served inline with their type; a non-image is a 400', async (t) => {
  const { id } = await createFlow(server, echoFlow('Images'));
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const res = await server.request(`/api/v1/files/upload/${id}`, { method: 'POST', body: form(png, 'logo.png') });
  t.equal(res.status, 201, 'images are accepted on v1');
  const name = ((await res.json()) as { file_path: string }).file_path.split('/')[1]!;
  t.match(name, STAMPED);
  const image = await server.request(`/api/v1/files/images/${id}/${encodeURIComponent(name)}`);
  t.equal(image.status, 200);
  t.equal(image.headers.get('content-type'), 'image/png');
  t.equal(image.headers.get('content-disposition'), null, 'inline');
  t.equal(image.headers.get('x-content-type-options'), 'nosniff');
  t.same(new Uint8Array(await image.arrayBuffer()), png);

  const text = await (await server.request(`/api/v1/files/upload/${id}`, { method: 'POST', body: form('hi', 'note.txt') })).json();
  const refused = await server.request(`/api/v1/files/images/${id}/${encodeURIComponent(text.file_path.split('/')[1])}`);
  t.equal(refused.status, 400);
  t.match((await refused.json()).detail, /Not an image: only png, jpg.*svg/);
  t.equal((await server.request(`/api/v1/files/images/${id}/missing.png`)).status, 404);
});

t.test('the deprecated POST /api/v1/upload/{flow_id} answers the same, and says it is deprecated', async (t) => {
  const { id } = await createFlow(server, echoFlow('Old upload'));
  const res = await server.request(`/api/v1/upload/${id}`, { method: 'POST', body: form('old', 'old.txt') });
  t.equal(res.status, 201);
  t.equal(res.headers.get('deprecation'), 'true');
  const body = await res.json();
  t.equal(body.flowId, id);
  t.match(body.file_path, new RegExp(`^${id}/\\d{4}-.*_old\\.txt$`));
  t.equal((await server.request(`/api/v1/files/upload/${id}`, { method: 'POST', body: form('new', 'new.txt') })).headers.get('deprecation'), null, 'the current route is not');
  const openapi = await (await server.request('/openapi.json')).json();
  t.equal(openapi.paths['/api/v1/upload/{flow_id}'].post.deprecated, true);
  t.notOk(openapi.paths['/api/v1/files/upload/{flow_id}'].post.deprecated);
});

t.test("another user's flow, or none, is not found for every v1 route", async (t) => {
  const { id } = await createFlow(server, echoFlow('Private files'));
  const mine = await (await server.request(`/api/v1/files/upload/${id}`, { method: 'POST', body: form('secret', 'secret.txt') })).json();
  const name = encodeURIComponent(mine.file_path.split('/')[1]);
  const other = await createUserWithKey(server, 'flow-file-neighbour');
  for (const flowId of [id, 'no-such-flow']) {
    const requests: [string, string, FormData?][] = [
      ['POST', `/api/v1/files/upload/${flowId}`, form('x', 'x.txt')],
      ['POST', `/api/v1/upload/${flowId}`, form('x', 'x.txt')],
      ['GET', `/api/v1/files/list/${flowId}`],
      ['GET', `/api/v1/files/download/${flowId}/${name}`],
      ['GET', `/api/v1/files/images/${flowId}/${name}`],
      ['DELETE', `/api/v1/files/delete/${flowId}/${name}`],
    ];
    for (const [method, path, body] of requests) {
      const res = await server.request(path, { method, body, key: other.apiKey });
      t.equal(res.status, 404, `${method} ${path.replace(flowId, flowId === id ? '<theirs>' : '<none>')}: 404`);
      t.same(await res.json(), { detail: 'Flow not found' });
    }
  }
  t.same(onDisk(id), [mine.file_path.split('/')[1]], 'nothing was added or removed');
  t.equal((await server.request(`/api/v1/files/download/${id}/${name}`)).status, 200, 'still there for its owner');
});

t.test('bad names and ids in the path are a 422 naming the field', async (t) => {
  const { id } = await createFlow(server, echoFlow('Bad names'));
  const cases: [string, string, string][] = [
    ['GET', `/api/v1/files/download/${id}/..`, 'path.file_name'],
    ['DELETE', `/api/v1/files/delete/${id}/..`, 'path.file_name'],
    ['GET', `/api/v1/files/download/${id}/%2E%2E`, 'path.file_name'],
    ['GET', `/api/v1/files/download/${id}/a%2Fb`, 'path.file_name'],
    ['GET', `/api/v1/files/download/${id}/a%5Cb`, 'path.file_name'],
    ['GET', `/api/v1/files/download/${id}/a%00b`, 'path.file_name'],
    ['GET', `/api/v1/files/images/${id}/${'x'.repeat(300)}.png`, 'path.file_name'],
    ['GET', `/api/v1/files/list/${'f'.repeat(500)}`, 'path.flow_id'],
    ['GET', '/api/v1/files/profile_pictures/..%2F..%2F/x.svg', 'path.folder_name'],
  ];
  for (const [method, path, field] of cases) {
    const res = await raw(method, path);
    t.equal(res.status, 422, `${method} ${path.slice(-30)}: 422`);
    t.equal(res.body.detail[0].loc.join('.'), field);
  }

  const long = await (await server.request(`/api/v1/files/upload/${id}`, { method: 'POST', body: form('long', `${'n'.repeat(400)}.txt`) })).json();
  const stored = long.file_path.split('/')[1];
  t.ok(stored.length <= 255 && stored.endsWith('.txt'), 'an overlong upload name is cut to fit, keeping its extension');
  t.equal((await server.request(`/api/v1/files/download/${id}/${encodeURIComponent(stored)}`)).status, 200, 'and can be downloaded by it');
  const wide = await server.request(`/api/v1/files/upload/${id}`, { method: 'POST', body: form('wide', `${'文'.repeat(200)}.txt`) });
  t.equal(wide.status, 201, 'a long name in a wide script fits the disk too');
  const wideName = (await wide.json()).file_path.split('/')[1];
  t.ok(Buffer.byteLength(wideName) <= 255 && wideName.endsWith('文.txt'));
  t.equal(await (await server.request(`/api/v1/files/download/${id}/${encodeURIComponent(wideName)}`)).text(), 'wide');
  const sneaky = await (await server.request(`/api/v1/files/upload/${id}`, { method: 'POST', body: form('x', '../../etc/evil.txt') })).json();
  t.match(sneaky.file_path, new RegExp(`^${id}/\\d{4}-[^/]*_evil\\.txt$`), 'a name with ../ keeps only its last part');
});

t.test('a run reads a v1 upload by its file_path; deleting the flow removes its files', async (t) => {
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const reader = flow('Reader v1', [node('ChatInput-in001', 'ChatInput', {}), node('File-f0001', 'File', { path: { type: 'file', value: '', file_path: [] } }), node('ChatOutput-out01', 'ChatOutput', {})], [edge('File-f0001', 'message', 'ChatOutput-out01', 'input_value')]);
  const { id } = await createFlow(server, reader);
  const uploaded = await client.flow(id).uploadFile(new File(['The answer is 42.'], 'notes.txt'));
  const response = await client.flow(id).run('x', { tweaks: { 'File-f0001': { path: uploaded.filePath } } });
  t.equal(response.chatOutputText(), 'The answer is 42.');

  t.equal(onDisk(id).length, 1);
  t.equal((await server.request(`/api/v1/flows/${id}`, { method: 'DELETE' })).status, 200);
  t.throws(() => onDisk(id), { code: 'ENOENT' }, 'no folder left');
  t.equal((await server.request(`/api/v1/files/list/${id}`)).status, 404);
});

t.test('profile pictures: the list, one picture, and unknown ones', async (t) => {
  const listed = await (await server.request('/api/v1/files/profile_pictures/list')).json();
  t.ok(listed.files.length >= 6, 'several pictures');
  t.ok(listed.files.every((name: string) => /^(People|Space)\/[\w-]+\.svg$/.test(name)), 'each <folder>/<name>.svg');
  t.ok(listed.files.some((name: string) => name.startsWith('People/')) && listed.files.some((name: string) => name.startsWith('Space/')), 'both folders');
  const [folder, file] = listed.files[0].split('/');
  const picture = await server.request(`/api/v1/files/profile_pictures/${folder}/${file}`);
  t.equal(picture.status, 200);
  t.equal(picture.headers.get('content-type'), 'image/svg+xml');
  t.match(await picture.text(), /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  for (const path of ['People/nobody.svg', 'Nowhere/amber.svg', `Space/${file}x`]) {
    const res = await server.request(`/api/v1/files/profile_pictures/${path}`);
    t.equal(res.status, 404, `${path}: 404`);
    await res.arrayBuffer();
  }
  const anonymous = await fetch(`${server.url}/api/v1/files/profile_pictures/list`);
  t.equal(anonymous.status, 403, 'the spec asks for auth on every file route');
  await anonymous.arrayBuffer();
});
