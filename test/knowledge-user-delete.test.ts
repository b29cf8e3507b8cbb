/**
 * A user deleted through the users API (by the superuser) takes their knowledge bases with them, of every kind:
 * records, ingestion records, chunks and vector files, even with an ingestion under way. Another user's knowledge
 * base of the same name is untouched, and a new user of the same username starts with none.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startEmbeddingServer, type EmbeddingServer } from '../bench/support/embedding-server.js';
import { createUserWithKey } from './support/auth.js';
import { filesUnder } from './support/files-under.js';
import { createFlow } from './support/flow-helpers.js';
import { createKb, ingest, ingestAndWait, KEY_HEADER } from './support/knowledge.js';
import { edge, flow, node } from './support/langflow-json.js';
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

const FACTS = 'Bees dance to tell each other where the flowers are.\n\nGlaciers carve valleys over thousands of years.';
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line number ${i} of the long text`).join('\n');

/** A Chroma collection written by a run (Text Input -> Split Text -> Chroma), so the user holds a store of that kind too. */
async function runChromaFlow(key: string): Promise<void> {
  const created = await createFlow(
    server,
    flow(
      'Chroma facts',
      [
        node('ChatInput-in001', 'ChatInput'),
        node('EmbeddingModel-em001', 'EmbeddingModel', { model: [{ name: 'text-embedding-3-small', provider: 'OpenAI' }], api_key: { value: 'OPENAI_API_KEY', load_from_db: true } }),
        node('Chroma-vs001', 'Chroma', { collection_name: 'facts', number_of_results: 1 }),
        node('TextInput-data1', 'TextInput', { input_value: FACTS }),
        node('SplitText-split1', 'SplitText', { chunk_size: 60, chunk_overlap: 0, separator: '\n\n' }),
        node('ParserComponent-p001', 'parser', { mode: 'Parser', pattern: '{text}', sep: '\n' }),
        node('ChatOutput-out01', 'ChatOutput'),
      ],
      [
        edge('ChatInput-in001', 'message', 'Chroma-vs001', 'search_query'),
        edge('EmbeddingModel-em001', 'embeddings', 'Chroma-vs001', 'embedding'),
        edge('TextInput-data1', 'text', 'SplitText-split1', 'data_inputs'),
        edge('SplitText-split1', 'dataframe', 'Chroma-vs001', 'ingest_data'),
        edge('Chroma-vs001', 'dataframe', 'ParserComponent-p001', 'input_data'),
        edge('ParserComponent-p001', 'parsed_text', 'ChatOutput-out01', 'input_value'),
      ],
    ),
    key,
  );
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'glaciers' }, headers: KEY_HEADER, key });
  if (res.status !== 200) throw new Error(`chroma run: ${res.status} ${await res.text()}`);
}

t.test("deleting a user removes their knowledge bases, chunks and vector files; others' are untouched; the name is free", async (t) => {
  const knowledgeDir = join(server.dataDir, 'files', 'knowledge');
  t.equal((await createKb(server, 'facts')).status, 201);
  t.equal((await ingestAndWait(server, 'facts', { 'facts.txt': FACTS }, { chunk_size: '60', chunk_overlap: '0' })).status, 'completed');
  const superusersFiles = filesUnder(knowledgeDir);

  const doomed = await createUserWithKey(server, 'kb-leaving');
  t.equal((await createKb(server, 'facts', doomed.apiKey)).status, 201);
  const done = await ingestAndWait(server, 'facts', { 'facts.txt': FACTS }, { chunk_size: '60', chunk_overlap: '0' }, doomed.apiKey);
  t.equal(done.status, 'completed');
  await runChromaFlow(doomed.apiKey);
  // One more ingestion, held mid-way by the embedder when the user is deleted.
  t.equal((await createKb(server, 'busy', doomed.apiKey)).status, 201);
  const before = embedder.requests;
  embedder.misbehave(before, 'hang');
  const busy = await ingest(server, 'busy', { 'long.txt': lines(2000) }, { chunk_size: '30', chunk_overlap: '0' }, doomed.apiKey);
  const { id: busyJob } = await busy.json();
  while (embedder.requests === before) await new Promise((r) => setTimeout(r, 20));
  t.equal((await (await server.request('/api/v1/knowledge_bases/busy', { key: doomed.apiKey })).json()).status, 'ingesting');

  const repo = server.services.store.knowledge;
  const records = [...(await repo.listByUser(doomed.id, 'knowledge')), ...(await repo.listByUser(doomed.id, 'chroma'))];
  t.equal(records.length, 3, 'two knowledge bases and one Chroma collection before');
  t.ok(filesUnder(join(knowledgeDir, doomed.id)).some((file) => file.endsWith('.f32')), 'vector files on disk before');
  const facts = records.find((record) => record.name === 'facts');
  const segment = facts!.segments[0]!;
  t.ok((await repo.chunks(facts!.id, segment.job_id, 0, 10)).length > 0, 'chunks stored before');

  const deleted = await server.request(`/api/v1/users/${doomed.id}`, { method: 'DELETE' });
  embedder.misbehave(Infinity, 'none');
  t.equal(deleted.status, 200, await deleted.text());

  for (const record of records) t.equal(await repo.get(record.id), undefined, `record ${record.kind}/${record.name} gone`);
  t.same(await repo.chunks(facts!.id, segment.job_id, 0, 10), [], 'its chunks gone');
  t.equal(await repo.getJob(done.id), undefined, 'its ingestion records gone');
  t.equal(await repo.getJob(busyJob), undefined, 'the one under way too');
  t.notOk((await repo.unfinishedJobs()).some((job) => job.user_id === doomed.id), 'nothing left for a restart to recover');
  t.notOk(existsSync(join(knowledgeDir, doomed.id)), "the user's folder of vector files is gone");
  t.same(filesUnder(knowledgeDir), superusersFiles, "only the superuser's vector files remain");

  const kept = await (await server.request('/api/v1/knowledge_bases/facts')).json();
  t.equal(kept.chunks, 2, "the superuser's knowledge base of the same name is whole");

  const again = await createUserWithKey(server, 'kb-leaving');
  t.same(await (await server.request('/api/v1/knowledge_bases', { key: again.apiKey })).json(), [], 'a new user of that username starts with none');
  t.equal((await server.request('/api/v1/knowledge_bases/facts', { key: again.apiKey })).status, 404);
  t.equal((await createKb(server, 'facts', again.apiKey)).status, 201, 'and the name is free for them');
  t.equal((await createKb(server, 'busy', again.apiKey)).status, 201);
});
