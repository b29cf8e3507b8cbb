/**
 * Langflow's knowledge base starters after their knowledge base is ingested: Vector Store RAG (retrieve, then the
 * model answers from the retrieved context) and Knowledge Retrieval (retrieve, parse, answer), unchanged but for the
 * knowledge base picked and the model field set (the empty model field's default lands with the models API).
 * Embeddings come from the local stand-in, reached as an Ollama embedding model through OLLAMA_BASE_URL.
 */
import t from 'tap';
import { startEmbeddingServer, type EmbeddingServer } from '../bench/support/embedding-server.js';
import { createFlow, starterFlow } from '../test/support/flow-helpers.js';
import { ingestAndWait } from '../test/support/knowledge.js';
import type { ModelServer } from '../test/support/model-server.js';
import { modelClient, startModelStack } from '../test/support/model-flows.js';
import type { TestServer } from '../test/support/server.js';

let model: ModelServer;
let server: TestServer;
let embedder: EmbeddingServer;
let close: () => Promise<void>;

const DOCUMENT = [
  'Cats sleep for most of the day, often sixteen hours, in warm and quiet places.',
  'Rockets carry their own oxygen so that their fuel can burn in the vacuum of space.',
  'Tomatoes ripen faster next to bananas because bananas give off ethylene gas.',
].join('\n\n');

t.before(async () => {
  embedder = await startEmbeddingServer({ dims: 256 });
  process.env.OLLAMA_BASE_URL = embedder.url;
  ({ model, server, close } = await startModelStack({ storeKey: true }));
  const created = await server.request('/api/v1/knowledge_bases', { method: 'POST', json: { name: 'starter docs', embedding_provider: 'Ollama', embedding_model: 'nomic-embed-text' } });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
  const end = await ingestAndWait(server, 'starter_docs', { 'notes.md': DOCUMENT }, { chunk_size: '120', chunk_overlap: '0' });
  if (end.status !== 'completed') throw new Error(`ingestion ${end.status}: ${end.error_message}`);
});
t.teardown(async () => {
  await close();
  await embedder.close();
});

/** The starter with its Knowledge node pointed at our knowledge base and its model chosen. */
function prepared(name: string): Record<string, any> {
  const flow = starterFlow(`current/${name}`);
  for (const node of flow.data.nodes) {
    const template = node.data?.node?.template;
    if (node.data?.type === 'Knowledge') template.knowledge_base.value = 'starter_docs';
    if (node.data?.type === 'LanguageModelComponent') template.model.value = [{ name: 'gpt-4o-mini', provider: 'OpenAI' }];
  }
  return flow;
}

t.test('Vector Store RAG: the chunk nearest the question reaches the model as context', async (t) => {
  const created = await createFlow(server, prepared('Vector Store RAG'));
  const before = model.chats.length;
  const response = await modelClient(server, {}).flow(created.id).run('How long do cats sleep each day?');
  t.match(response.chatOutputText(), /^You said: /);
  t.equal(model.chats.length, before + 1);
  const prompt = JSON.stringify(model.chats[before]!.body.messages);
  t.match(prompt, /Cats sleep for most of the day/, 'the retrieved chunk is in the prompt');
  t.match(prompt, /How long do cats sleep each day\?/, 'and so is the question');
});

t.test('Knowledge Retrieval: the parsed results answer, nearest first', async (t) => {
  const created = await createFlow(server, prepared('Knowledge Retrieval'));
  const response = await modelClient(server, {}).flow(created.id).run('why do rockets carry oxygen');
  const text = response.chatOutputText() ?? '';
  const lines = text.split('\n').filter(Boolean);
  t.equal(lines.length, 3, 'top-k 5 of a three-chunk knowledge base');
  t.match(lines[0], /^Text: Rockets carry their own oxygen/, 'the nearest chunk first');
});

t.test("another user's flow cannot retrieve from this user's knowledge base", async (t) => {
  const { createUserWithKey } = await import('../test/support/auth.js');
  const other = await createUserWithKey(server, 'kb-starter-other');
  const created = await createFlow(server, prepared('Knowledge Retrieval'), other.apiKey);
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'cats' }, key: other.apiKey });
  t.not(res.status, 200);
  t.match(JSON.stringify(await res.json()), /Knowledge base 'starter_docs' not found/);
});
