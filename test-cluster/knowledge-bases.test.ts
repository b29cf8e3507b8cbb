/**
 * Knowledge bases across three instances on one PostgreSQL and one shared files dir: created on A, ingested through
 * B (the job runs there), and once its job is done its chunks are read on C and a Knowledge flow retrieves from it
 * on A; deleted on C, it is gone everywhere. Each instance says at start-up which vector store it uses, and whether
 * the database offers pgvector (as the database itself answers).
 */
import pg from 'pg';
import t from 'tap';
import { startEmbeddingServer } from '../bench/support/embedding-server.js';
import { edge, flow, node } from '../test/support/langflow-json.js';
import { startCluster } from './support/cluster.js';
import { expectJson, SUPERUSER_KEY } from './support/instances.js';

const FACTS = ['Owls hunt at night and see well in the dark.', 'Volcanoes form where magma reaches the surface.', 'Sourdough rises because of wild yeast and bacteria.'];

t.test('a knowledge base ingested on one instance is read and searched on the others', async (t) => {
  const embedder = await startEmbeddingServer({ dims: 96 });
  t.teardown(() => embedder.close());
  const { instances, databaseUrl } = await startCluster(t, 3, { OPENAI_BASE_URL: embedder.baseURL, FLOWSVC_FALLBACK_TO_ENV_VAR: 'false', FLOWSVC_LOG_LEVEL: 'info' });
  const [a, b, c] = instances;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const offered = (await pool.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rowCount! > 0;
  await pool.end();
  const said = offered ? 'pgvector is available in this database but not used' : 'pgvector is not installed in this database';
  for (const instance of instances) t.match(instance.output(), `knowledge base vector store: the files dir, which every instance must share (${said})`, 'start-up says which vector store');
  const headers = { 'x-api-key': SUPERUSER_KEY, 'x-flowsvc-global-var-openai-api-key': 'sk-stand-in' };

  await expectJson(await a!.call('/api/v1/knowledge_bases', { method: 'POST', json: { name: 'shared facts', embedding_provider: 'OpenAI', embedding_model: 'text-embedding-3-small' } }), 201);
  const form = new FormData();
  form.append('files', new Blob([FACTS.join('\n\n')]), 'facts.txt');
  form.append('chunk_size', '60');
  form.append('chunk_overlap', '0');
  const accepted = await (await fetch(`${b!.url}/api/v1/knowledge_bases/shared_facts/ingest`, { method: 'POST', headers, body: form })).json();
  const events = await (await fetch(`${b!.url}/api/v1/knowledge_bases/shared_facts/runs/${accepted.id}?stream=true`, { headers })).text();
  t.match(events, /event: end/);

  const run = await expectJson(await c!.call(`/api/v1/knowledge_bases/shared_facts/runs/${accepted.id}`), 200);
  t.equal(run.status, 'completed', 'C reads the ingestion B ran');
  const info = await expectJson(await c!.call('/api/v1/knowledge_bases/shared_facts'), 200);
  t.equal(info.chunks, 3);
  const chunks = await expectJson(await c!.call('/api/v1/knowledge_bases/shared_facts/chunks'), 200);
  t.same(chunks.chunks.map((chunk: { content: string }) => chunk.content), FACTS);

  const retrieval = flow(
    'Shared retrieval',
    [node('ChatInput-in001', 'ChatInput'), node('Knowledge-kb001', 'Knowledge', { knowledge_base: 'shared facts', mode: 'Retrieve', top_k: 1 }), node('ParserComponent-p001', 'parser', { mode: 'Parser', pattern: '{content}', sep: '\n' }), node('ChatOutput-out01', 'ChatOutput')],
    [edge('ChatInput-in001', 'message', 'Knowledge-kb001', 'search_query'), edge('Knowledge-kb001', 'retrieve_data', 'ParserComponent-p001', 'input_data'), edge('ParserComponent-p001', 'parsed_text', 'ChatOutput-out01', 'input_value')],
  );
  const created = await expectJson(await a!.call('/api/v1/flows/', { method: 'POST', json: retrieval }), 201);
  const reply = await expectJson(await a!.call(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'volcanoes and magma' }, headers: { 'x-flowsvc-global-var-openai-api-key': 'sk-stand-in' } }), 200);
  t.equal(reply.outputs[0].outputs[0].results.message.text, FACTS[1], 'A searches the vectors B wrote, in the shared files dir');

  await expectJson(await c!.call('/api/v1/knowledge_bases/shared_facts', { method: 'DELETE' }), 200);
  t.equal((await a!.call('/api/v1/knowledge_bases/shared_facts')).status, 404, 'deleted on C, gone on A');
});
