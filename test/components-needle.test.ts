/**
 * Needle Retriever against a local stand-in of Needle's search API (FLOWSVC_NEEDLE_BASE_URL), through the HTTP edge:
 * the request it makes, where its key comes from, how each failure reads, and as an Agent's tool.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startModelServer, type ModelServer, type RecordedRequest } from './support/model-server.js';
import { keyVariable, modelClient } from './support/model-flows.js';
import { NEEDLE_KEY, startNeedleStandIn, type NeedleStandIn } from './support/needle-stand-in.js';
import { RETRY_AFTER_SECONDS } from './support/service-stand-in.js';
import { startTestServer, type TestServer } from './support/server.js';

let needle: NeedleStandIn;
let model: ModelServer;
let server: TestServer;
const restore: (() => void)[] = [];

t.before(async () => {
  needle = await startNeedleStandIn();
  model = await startModelServer();
  restore.push(needle.setBaseUrl('FLOWSVC_NEEDLE_BASE_URL'));
  // Private networks stay refused: the stand-in is reached because it is the configured base URL.
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'true', ALLOW_PRIVATE_NETWORK: 'false' });
});
t.teardown(async () => {
  restore.forEach((undo) => undo());
  await server.close();
  await model.close();
  await needle.close();
});
t.afterEach(() => {
  needle.mode = 'ok';
});

const needleFlow = (template: Record<string, unknown>) =>
  flow('Needle search', [node('ChatInput-in001', 'ChatInput'), node('needle-n1', 'needle', { collection_id: 'col-7', ...template }, 'Needle Retriever'), node('ChatOutput-out01', 'ChatOutput')], [
    edge('ChatInput-in001', 'message', 'needle-n1', 'query'),
    edge('needle-n1', 'result', 'ChatOutput-out01', 'input_value'),
  ]);

async function run(template: Record<string, unknown>, headers: Record<string, string> = {}) {
  const created = await createFlow(server, needleFlow(template));
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'What is due?' }, headers });
  return { status: res.status, body: await res.json() };
}

const outputText = (body: any) => body.outputs[0].outputs[0].results.message.text;

t.test('a search sends the question and top_k with the key, and answers with the passages', async (t) => {
  const before = needle.seen.length;
  const { status, body } = await run({ needle_api_key: NEEDLE_KEY, top_k: 5 });
  t.equal(status, 200);
  const [request] = needle.seen.slice(before);
  t.equal(request!.path, '/api/v1/collections/col-7/search');
  t.equal(request!.headers['x-api-key'], NEEDLE_KEY);
  t.same(request!.json(), { text: 'What is due?', top_k: 20 }, 'top_k is never under 20, as in Langflow');
  t.equal(outputText(body), 'Question: What is due?\n\nContext:\nDocument 1:\nInvoice 42: 3 items, total 1200 EUR, due 2026-12-01. (col-7: What is due?)');
});

t.test('the key comes from a global variable named by the field, or NEEDLE_API_KEY in the environment', async (t) => {
  const viaHeader = await run({ needle_api_key: keyVariable('NEEDLEKEY') }, { 'X-LANGFLOW-GLOBAL-VAR-NEEDLEKEY': NEEDLE_KEY });
  t.equal(viaHeader.status, 200, JSON.stringify(viaHeader.body));
  process.env.NEEDLE_API_KEY = NEEDLE_KEY;
  try {
    const viaEnv = await run({ needle_api_key: '' });
    t.equal(viaEnv.status, 200, 'an empty field falls back to NEEDLE_API_KEY');
  } finally {
    delete process.env.NEEDLE_API_KEY;
  }
});

t.test('no key: a 400 naming the variable, and no request leaves', async (t) => {
  const before = needle.seen.length;
  const { status, body } = await run({ needle_api_key: '' });
  t.equal(status, 400);
  t.match(body.detail, /^Needle needs an API key and the "Needle API Key" field \(needle_api_key\) is empty: Variable NEEDLE_API_KEY not found\. Set it as a global variable/);
  t.equal(needle.seen.length, before);
});

t.test('failures name Needle: a refused key, rate limiting, silence, an answer too large', async (t) => {
  needle.mode = 'unauthorized';
  t.match((await run({ needle_api_key: 'wrong' })).body.detail, /Needle refused the API key \(401\)/);
  needle.mode = 'rate-limited';
  t.match((await run({ needle_api_key: NEEDLE_KEY })).body.detail, new RegExp(`Needle is limiting requests \\(429\\); it asks to retry after ${RETRY_AFTER_SECONDS} s`));
  needle.mode = 'huge';
  t.match((await run({ needle_api_key: NEEDLE_KEY })).body.detail, /Needle's answer is larger than 16 MB; it was not read/);
  needle.mode = 'silent';
  process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS = '0.5';
  try {
    const started = Date.now();
    const { status, body } = await run({ needle_api_key: NEEDLE_KEY });
    t.equal(status, 500, 'a component failure, as any');
    t.match(body.detail, /Needle did not answer within 0.5 s/);
    t.ok(Date.now() - started < 5000, 'the timeout holds');
  } finally {
    delete process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS;
  }
});

const toolMessage = (request: RecordedRequest) => request.body.messages.find((m: { role: string }) => m.role === 'tool');

const agentFlow = (needleTemplate: Record<string, unknown>) =>
  flow('Needle agent', [
    node('ChatInput-in001', 'ChatInput'),
    node('needle-n1', 'needle', { collection_id: 'col-7', ...needleTemplate }, 'Needle Retriever'),
    node('Agent-a1', 'Agent', { agent_llm: 'OpenAI', model_name: 'gpt-4o-mini', api_key: keyVariable(), openai_api_base: model.baseURL, add_current_date_tool: false }, 'Agent'),
    node('ChatOutput-out01', 'ChatOutput'),
  ], [
    edge('ChatInput-in001', 'message', 'Agent-a1', 'input_value'),
    edge('needle-n1', 'component_as_tool', 'Agent-a1', 'tools'),
    edge('Agent-a1', 'response', 'ChatOutput-out01', 'input_value'),
  ]);

t.test('as an Agent tool: the passages, or the failure, go back to the model and the run goes on', async (t) => {
  const created = await createFlow(server, agentFlow({ needle_api_key: NEEDLE_KEY }));
  const client = modelClient(server).flow(created.id);
  model.script({ toolCalls: [{ name: 'run', arguments: { query: 'total of invoice 42' } }] }, (request) => ({ text: `Tool said: ${toolMessage(request)?.content}` }));
  const answered = await client.run('What is the total?');
  t.match(answered.chatOutputText(), /^Tool said: [^]*total 1200 EUR/);

  needle.mode = 'unauthorized';
  model.script({ toolCalls: [{ name: 'run', arguments: { query: 'total' } }] }, (request) => ({ text: `Tool said: ${toolMessage(request)?.content}` }));
  const refused = await client.run('What is the total?');
  t.match(refused.chatOutputText(), /^Tool said: [^]*Needle refused the API key \(401\)/);
});

t.test('as an Agent tool without a key, the run stops with the 400 before the model is asked', async (t) => {
  const created = await createFlow(server, agentFlow({ needle_api_key: '' }));
  const before = model.chats.length;
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi' }, headers: { 'X-FLOWSVC-GLOBAL-VAR-OPENAIKEY': 'sk-x' } });
  t.equal(res.status, 400);
  t.match((await res.json()).detail, /NEEDLE_API_KEY/);
  t.equal(model.chats.length, before);
});
