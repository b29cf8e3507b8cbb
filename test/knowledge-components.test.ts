/**
 * The embedding and vector store components on our own flows in Langflow's shapes: Embedding Model -> FAISS with
 * Ingest Data and a search query (Nvidia Remix's wiring), Chroma keeping its collection between runs and per user,
 * and the Knowledge node through the v2 workflow API.
 */
import t from 'tap';
import { startEmbeddingServer, type EmbeddingServer } from '../bench/support/embedding-server.js';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { createKb, ingestAndWait, KEY_HEADER } from './support/knowledge.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let embedder: EmbeddingServer;

t.before(async () => {
  embedder = await startEmbeddingServer({ dims: 128 });
  process.env.OPENAI_BASE_URL = embedder.baseURL;
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
});
t.teardown(async () => {
  await server.close();
  await embedder.close();
});

const FACTS = ['The lighthouse keeper polishes the lens every night.', 'Bees dance to tell each other where the flowers are.', 'Glaciers carve valleys over thousands of years.'];

/** Chat Input -> (search_query) store <- Embedding Model, with a JSON text of rows as Ingest Data when given. */
function storeFlow(type: 'FAISS' | 'Chroma', name: string, withData: boolean) {
  const nodes = [
    node('ChatInput-in001', 'ChatInput'),
    node('EmbeddingModel-em001', 'EmbeddingModel', { model: [{ name: 'text-embedding-3-small', provider: 'OpenAI' }], api_key: { value: 'OPENAI_API_KEY', load_from_db: true } }),
    node(`${type}-vs001`, type, type === 'FAISS' ? { index_name: name, number_of_results: 1 } : { collection_name: name, number_of_results: 1 }),
    node('ParserComponent-p001', 'parser', { mode: 'Parser', pattern: '{text}', sep: '\n' }),
    node('ChatOutput-out01', 'ChatOutput'),
  ];
  const edges = [
    edge('ChatInput-in001', 'message', `${type}-vs001`, 'search_query'),
    edge('EmbeddingModel-em001', 'embeddings', `${type}-vs001`, 'embedding'),
    edge(`${type}-vs001`, 'dataframe', 'ParserComponent-p001', 'input_data'),
    edge('ParserComponent-p001', 'parsed_text', 'ChatOutput-out01', 'input_value'),
  ];
  if (withData) {
    nodes.push(node('TextInput-data1', 'TextInput', { input_value: FACTS.join('\n') }));
    nodes.push(node('SplitText-split1', 'SplitText', { chunk_size: 60, chunk_overlap: 0, separator: '\n' }));
    edges.push(edge('TextInput-data1', 'text', 'SplitText-split1', 'data_inputs'), edge('SplitText-split1', 'dataframe', `${type}-vs001`, 'ingest_data'));
  }
  return flow(`${type} ${name}`, nodes, edges);
}

async function run(flowId: string, input: string, key?: string, tweaks?: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const res = await server.request(`/api/v1/run/${flowId}`, { method: 'POST', json: { input_value: input, tweaks }, headers: KEY_HEADER, key });
  const body = await res.json();
  return { status: res.status, text: res.status === 200 ? body.outputs[0].outputs[0].results.message.text : JSON.stringify(body) };
}


t.test('FAISS with an Embedding Model: the index is built from Ingest Data and searched', async (t) => {
  const created = await createFlow(server, storeFlow('FAISS', 'facts', true));
  const first = await run(created.id, 'where are the flowers');
  t.equal(first.status, 200, first.text);
  t.equal(first.text, FACTS[1], first.text);
  const searchOnly = await createFlow(server, storeFlow('FAISS', 'facts', false));
  const again = await run(searchOnly.id, 'what do glaciers carve');
  t.equal(again.text, FACTS[2], 'a later run without Ingest Data searches the kept index');
});

t.test("Chroma keeps its collection per user: another user's flow of the same collection finds nothing", async (t) => {
  const created = await createFlow(server, storeFlow('Chroma', 'shared-name', true));
  t.equal((await run(created.id, 'lighthouse lens')).text, FACTS[0]);
  t.equal((await run(created.id, 'lighthouse lens')).text, FACTS[0], 'a second run with the same rows answers the same');
  const other = await createUserWithKey(server, 'chroma-other');
  const theirs = await createFlow(server, storeFlow('Chroma', 'shared-name', false), other.apiKey);
  const found = await run(theirs.id, 'lighthouse lens', other.apiKey);
  t.equal(found.status, 200, found.text);
  t.equal(found.text, '', 'their collection of that name is their own, and empty');
});

t.test('Knowledge through the v2 workflow API: its own knowledge base, and none of another user', async (t) => {
  await createKb(server, 'v2-facts');
  await ingestAndWait(server, 'v2-facts', { 'facts.txt': FACTS.join('\n\n') }, { chunk_size: '80', chunk_overlap: '0' });
  const knowledgeFlow = flow(
    'Knowledge v2',
    [node('ChatInput-in001', 'ChatInput'), node('Knowledge-kb001', 'Knowledge', { knowledge_base: 'v2-facts', mode: 'Retrieve', top_k: 1 }), node('ParserComponent-p001', 'parser', { mode: 'Parser', pattern: '{content}', sep: '\n' }), node('ChatOutput-out01', 'ChatOutput')],
    [edge('ChatInput-in001', 'message', 'Knowledge-kb001', 'search_query'), edge('Knowledge-kb001', 'retrieve_data', 'ParserComponent-p001', 'input_data'), edge('ParserComponent-p001', 'parsed_text', 'ChatOutput-out01', 'input_value')],
  );
  const mine = await createFlow(server, knowledgeFlow);
  const res = await server.request('/api/v2/workflows', { method: 'POST', json: { flow_id: mine.id, inputs: { 'ChatInput-in001.input_value': 'glaciers and valleys' } }, headers: KEY_HEADER });
  t.equal(res.status, 200);
  t.match(JSON.stringify(await res.json()), /Glaciers carve valleys/);
  const other = await createUserWithKey(server, 'v2-other');
  const theirs = await createFlow(server, knowledgeFlow, other.apiKey);
  const refused = await server.request('/api/v2/workflows', { method: 'POST', json: { flow_id: theirs.id, inputs: { 'ChatInput-in001.input_value': 'glaciers' } }, headers: KEY_HEADER, key: other.apiKey });
  t.match(JSON.stringify(await refused.json()), /Knowledge base 'v2-facts' not found/);
});
