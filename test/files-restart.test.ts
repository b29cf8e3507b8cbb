/**
 * An upload cut off by a SIGKILL of the real CLI leaves no record and, once the service starts again, no bytes:
 * the half-written file (a `.part-` name, never the file's own) is removed at start-up, and the files stored
 * before the kill are still there, whole.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { untilInDir } from './support/dir-watch.js';
import { serveProcess } from './support/process.js';

const KEY = 'sk-files-restart-key-0123456789abcdefghijklmnop';

t.test('SIGKILL mid-upload: after the restart, no record and no partial file; earlier files intact', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-files-restart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { FLOWSVC_PORT: '0', FLOWSVC_DATA_DIR: dir, FLOWSVC_LOG_LEVEL: 'info', FLOWSVC_API_KEY: KEY };
  const first = await serveProcess(env);
  const call = (base: string, path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { ...init, headers: { 'x-api-key': KEY, ...(init.headers ?? {}) } });

  const body = new FormData();
  body.append('file', new Blob(['kept across the kill']), 'kept.txt');
  const kept = (await (await call(first.url, '/api/v2/files', { method: 'POST', body })).json()) as { id: string; path: string };
  const userDir = join(dir, 'files', kept.path.split('/')[0]!);

  // A large upload, sent in part: the service is writing it to a temporary name when it is killed.
  const boundary = 'kill-boundary';
  const req = request(`${first.url}/api/v2/files`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(50 * 1024 * 1024) } });
  req.on('error', () => {});
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n\r\n` + 'x'.repeat(256 * 1024));
  const partial = () => readdirSync(userDir).filter((name) => name.includes('.part-'));
  await untilInDir(userDir, () => partial().length > 0, 'the upload\'s temporary file appearing');
  const exited = new Promise((resolve) => first.child.once('exit', resolve));
  first.child.kill('SIGKILL');
  await exited;
  req.destroy();
  t.equal(partial().length, 1, 'the kill left a half-written file');

  const second = await serveProcess(env);
  t.teardown(() => second.child.kill('SIGKILL'));
  t.same(partial(), [], 'the restart removed it');
  t.match(second.output(), /removed files left half written by interrupted uploads/);
  const listed = (await (await call(second.url, '/api/v2/files')).json()) as { name: string }[];
  t.same(listed.map((f) => f.name), ['kept'], 'no record of the cut upload');
  t.equal(await (await call(second.url, `/api/v2/files/${kept.id}`)).text(), 'kept across the kill');
  t.ok(existsSync(join(dir, 'files', kept.path)));
});
