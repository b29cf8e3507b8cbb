/** The knowledge bases API end to end: create, ingest in the background, counts, chunks, runs, delete. */
import t from 'tap';
import { startEmbeddingServer, type EmbeddingServer } from '../bench/support/embedding-server.js';
import { createKb, ingestAndWait } from './support/knowledge.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let embedder: EmbeddingServer;

t.before(async () => {
  embedder = await startEmbeddingServer({ dims: 32 });
  process.env.OPENAI_BASE_URL = embedder.baseURL;
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
});
t.teardown(async () => {
  await server.close();
  await embedder.close();
});

const PARAGRAPHS = ['Cats sleep most of the day in warm places.', 'Rockets need fuel and oxygen to reach orbit.', 'Tomatoes grow best with sun and steady water.'];

t.test('create, list and get a knowledge base in Langflow shapes', async (t) => {
  const created = await createKb(server, 'My Notes');
  t.equal(created.status, 201);
  const info = await created.json();
  t.match(info, { dir_name: 'My_Notes', name: 'My Notes', embedding_provider: 'OpenAI', embedding_model: 'text-embedding-3-small', chunks: 0, status: 'empty' });
  t.equal((await createKb(server, 'My Notes')).status, 409, 'a name taken is a conflict');
  const list = await (await server.request('/api/v1/knowledge_bases')).json();
  t.ok(list.some((kb: { dir_name: string }) => kb.dir_name === 'My_Notes'));
  t.equal((await server.request('/api/v1/knowledge_bases/My_Notes')).status, 200);
});

t.test('an ingestion runs in the background, then counts, chunks and its run record say what it wrote', async (t) => {
  t.equal((await createKb(server, 'facts')).status, 201);
  const end = await ingestAndWait(server, 'facts', { 'facts.txt': PARAGRAPHS.join('\n\n') }, { chunk_size: '60', chunk_overlap: '0', metadata: JSON.stringify({ tag: 'demo' }) });
  t.equal(end.status, 'completed', end.error_message ?? '');
  t.equal(end.chunks_created, 3);
  const info = await (await server.request('/api/v1/knowledge_bases/facts')).json();
  t.match(info, { chunks: 3, status: 'ready', chunk_size: 60, chunk_overlap: 0, source_types: ['txt'] });
  t.equal(info.characters, PARAGRAPHS.join('').length);
  t.equal(info.words, PARAGRAPHS.join(' ').split(/\s+/).length);
  const page = await (await server.request('/api/v1/knowledge_bases/facts/chunks?limit=2&page=1')).json();
  t.equal(page.total, 3);
  t.equal(page.chunks.length, 2);
  t.equal(page.total_pages, 2);
  t.match(page.chunks[0], { content: PARAGRAPHS[0], metadata: { file_name: 'facts.txt', chunk_index: 0, total_chunks: 3, source_type: 'file_upload' } });
  const searched = await (await server.request('/api/v1/knowledge_bases/facts/chunks?search=rockets')).json();
  t.equal(searched.total, 1);
  const tagged = await (await server.request('/api/v1/knowledge_bases/facts/chunks?meta_tag=demo')).json();
  t.equal(tagged.total, 3);
  const runs = await (await server.request('/api/v1/knowledge_bases/facts/runs')).json();
  t.match(runs, { total: 1, runs: [{ status: 'completed', chunks_created: 3, succeeded: 1 }] });
});

t.test('delete removes it and everything under it', async (t) => {
  t.equal((await createKb(server, 'gone-soon')).status, 201);
  await ingestAndWait(server, 'gone-soon', { 'a.txt': 'some words here' });
  t.equal((await server.request('/api/v1/knowledge_bases/gone-soon', { method: 'DELETE' })).status, 200);
  t.equal((await server.request('/api/v1/knowledge_bases/gone-soon')).status, 404);
  t.equal((await server.request('/api/v1/knowledge_bases/gone-soon/chunks')).status, 404);
});
