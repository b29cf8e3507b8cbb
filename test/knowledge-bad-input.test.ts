/**
 * Knowledge bases under bad input: each a clean 4xx or a defined outcome, and nothing already ingested is lost or
 * half visible (a failed, cancelled or deleted ingestion leaves the knowledge base as it was).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startEmbeddingServer, type EmbeddingServer } from '../bench/support/embedding-server.js';
import { createKb, ingest, ingestAndWait, ingestionEnd } from './support/knowledge.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let embedder: EmbeddingServer;

t.before(async () => {
  embedder = await startEmbeddingServer({ dims: 16 });
  process.env.OPENAI_BASE_URL = embedder.baseURL;
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
});
t.teardown(async () => {
  await server.close();
  await embedder.close();
});

const info = async (name: string) => (await server.request(`/api/v1/knowledge_bases/${name}`)).json();
const lines = (n: number, word = 'line') => Array.from({ length: n }, (_, i) => `${word} number ${i} of the text`).join('\n');

t.test('names: a path, a 10 KB name, too short or odd characters are refused; lookups of such names are 404', async (t) => {
  for (const name of ['../escape', 'a/b', 'ab', '-dash-first', 'x'.repeat(64), 'nul\u0000name']) t.equal((await createKb(server, name)).status, 400, JSON.stringify(name));
  t.equal((await createKb(server, 'y'.repeat(10 * 1024))).status, 422);
  t.equal((await server.request('/api/v1/knowledge_bases/..%2F..%2Fetc')).status, 404);
  t.equal((await server.request(`/api/v1/knowledge_bases/${'z'.repeat(10 * 1024)}`)).status, 422);
  t.equal((await server.request('/api/v1/knowledge_bases', { method: 'POST', json: { name: 'nope', embedding_provider: 'Acme', embedding_model: 'x' } })).status, 404, 'an unknown provider');
});

t.test('settings: chunk size 0 or 10 MB, an overlap past the size, bad metadata JSON: 422 before anything runs', async (t) => {
  await createKb(server, 'settings');
  for (const fields of <Record<string, string>[]>[{ chunk_size: '0' }, { chunk_size: String(10 * 1024 * 1024) }, { chunk_size: '100', chunk_overlap: '200' }, { metadata: '[1,2]' }, { metadata: '{bad' }, { per_file_metadata: '{"a.txt": 3}' }]) {
    const res = await ingest(server, 'settings', { 'a.txt': 'text' }, fields);
    t.equal(res.status, 422, JSON.stringify(fields));
  }
  const none = await ingest(server, 'settings', {});
  t.equal(none.status, 400, 'no file at all');
  t.equal((await (await server.request('/api/v1/knowledge_bases/settings/runs')).json()).total, 0, 'nothing was queued');
});

t.test('an empty file and a binary file under a text name are skipped by name; the ingestion completes with 0 chunks', async (t) => {
  await createKb(server, 'odd-files');
  const binary = new Uint8Array(4096).map((_, i) => (i * 37) % 256);
  const end = await ingestAndWait(server, 'odd-files', { 'empty.txt': '', 'image.txt': binary });
  t.equal(end.status, 'completed');
  t.equal(end.chunks_created, 0);
  t.match(end.items, [{ display_name: 'empty.txt', status: 'skipped' }, { display_name: 'image.txt', status: 'skipped', error_message: /not a text file/ }]);
  t.equal((await info('odd-files')).chunks, 0);
});

t.test('vectors of the wrong dimension mid-ingestion fail it; what was ingested before stays, nothing of it shows', async (t) => {
  await createKb(server, 'dims');
  t.equal((await ingestAndWait(server, 'dims', { 'first.txt': lines(10) }, { chunk_size: '40', chunk_overlap: '0' })).status, 'completed');
  const before = await info('dims');
  embedder.misbehave(embedder.requests + 1, 'wrong-dimensions');
  const end = await ingestAndWait(server, 'dims', { 'second.txt': lines(2000, 'other') }, { chunk_size: '40', chunk_overlap: '0' });
  embedder.misbehave(Infinity, 'none');
  t.equal(end.status, 'failed');
  t.match(end.error_message, /dimensions/);
  const after = await info('dims');
  t.equal(after.chunks, before.chunks);
  t.equal(after.status, 'failed', 'the last ingestion failed, and says why');
  const chunks = await (await server.request('/api/v1/knowledge_bases/dims/chunks?search=other')).json();
  t.equal(chunks.total, 0, 'no chunk of the failed ingestion is visible');
  const dir = join(server.dataDir, 'files', 'knowledge');
  const kbDir = join(dir, readdirSync(dir)[0]!, after.id);
  t.same(readdirSync(kbDir).filter((f) => f.endsWith('.f32')).length, 1, 'one vector file: the first ingestion');
});

t.test('an embedding endpoint that hangs: the ingestion is cancelled cleanly, its partial writes removed', async (t) => {
  await createKb(server, 'hang');
  embedder.misbehave(embedder.requests + 2, 'hang');
  const res = await ingest(server, 'hang', { 'long.txt': lines(3000) }, { chunk_size: '30', chunk_overlap: '0' });
  const { id } = await res.json();
  while (embedder.requests < 3) await new Promise((r) => setTimeout(r, 20));
  const cancelled = await server.request('/api/v1/knowledge_bases/hang/cancel', { method: 'POST' });
  t.equal(cancelled.status, 200);
  const end = await ingestionEnd(server, 'hang', id);
  embedder.misbehave(Infinity, 'none');
  t.equal(end.status, 'cancelled');
  t.equal((await info('hang')).chunks, 0);
  t.equal((await (await server.request('/api/v1/knowledge_bases/hang/chunks')).json()).total, 0);
  t.equal((await server.request('/api/v1/knowledge_bases/hang/cancel', { method: 'POST' })).status, 400, 'nothing left to cancel');
});

t.test('two ingestions into one knowledge base at once both land, whole', async (t) => {
  await createKb(server, 'twice');
  const [a, b] = await Promise.all([ingestAndWait(server, 'twice', { 'a.txt': lines(50, 'alpha') }, { chunk_size: '40', chunk_overlap: '0' }), ingestAndWait(server, 'twice', { 'b.txt': lines(70, 'beta') }, { chunk_size: '40', chunk_overlap: '0' })]);
  t.equal(a.status, 'completed');
  t.equal(b.status, 'completed');
  t.equal((await info('twice')).chunks, a.chunks_created + b.chunks_created);
});

t.test('a delete during an ingestion: the delete wins, the ingestion ends and leaves nothing behind', async (t) => {
  await createKb(server, 'doomed');
  embedder.misbehave(embedder.requests + 1, 'hang');
  const { id } = await (await ingest(server, 'doomed', { 'long.txt': lines(2000) }, { chunk_size: '30', chunk_overlap: '0' })).json();
  while (embedder.requests < 1) await new Promise((r) => setTimeout(r, 20));
  t.equal((await server.request('/api/v1/knowledge_bases/doomed', { method: 'DELETE' })).status, 200);
  embedder.misbehave(Infinity, 'none');
  t.equal((await server.request('/api/v1/knowledge_bases/doomed')).status, 404);
  t.equal((await server.request(`/api/v1/knowledge_bases/doomed/runs/${id}`)).status, 404);
});

t.test("another user's knowledge base is a 404 everywhere, and its name is free for them", async (t) => {
  const { createUserWithKey } = await import('./support/auth.js');
  const other = await createUserWithKey(server, 'kb-other-user');
  await createKb(server, 'private');
  for (const [method, path] of [['GET', ''], ['GET', '/chunks'], ['GET', '/runs'], ['DELETE', ''], ['POST', '/cancel']] as const) {
    t.equal((await server.request(`/api/v1/knowledge_bases/private${path}`, { method, key: other.apiKey })).status, 404, `${method} ${path}`);
  }
  t.equal((await ingest(server, 'private', { 'x.txt': 'x' }, {}, other.apiKey)).status, 404);
  t.same(await (await server.request('/api/v1/knowledge_bases', { key: other.apiKey })).json(), []);
  t.equal((await createKb(server, 'private', other.apiKey)).status, 201, 'the same name is theirs to use');
});
