/**
 * Tavily Search against a local stand-in of Tavily's API (FLOWSVC_TAVILY_BASE_URL), through the HTTP edge: the
 * request Langflow's component sends, the Table it makes of the answer, where the key comes from, and the tool an
 * Agent calls. Failures (401, 429, no answer, a huge answer) are in service-failures.test.ts.
 */
import t from 'tap';
import { agentToolFlow, repeatToolResult, toolMessageOf } from './support/agent-tool-flow.js';
import { createFlow } from './support/flow-helpers.js';
import { startModelServer } from './support/model-server.js';
import { modelClient } from './support/model-flows.js';
import { startTestServer } from './support/server.js';
import { chatText, serviceFlow, storeVariable } from './support/service-flows.js';
import { TAVILY_KEY, tavilyStandIn } from './support/tavily-stand-in.js';

const tavily = await tavilyStandIn();
const model = await startModelServer();
process.env.FLOWSVC_TAVILY_BASE_URL = tavily.url;
const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
t.teardown(async () => {
  await server.close();
  await model.close();
  await tavily.close();
});

const run = (flowId: string, input: string, headers: Record<string, string> = {}) =>
  server.request(`/api/v1/run/${flowId}`, { method: 'POST', json: { input_value: input }, headers });

t.test('a search sends Langflow\'s request and reads the answer, each result and the images as rows', async (t) => {
  const created = await createFlow(server, serviceFlow('TavilySearchComponent', { api_key: TAVILY_KEY }, 'query', 'dataframe'));
  const seen = tavily.requests.length;
  const res = await run(created.id, 'langflow flows');
  t.equal(res.status, 200);
  t.same(chatText(await res.json()).split('\n'), [
    'Flows are graphs of components (about langflow flows).',
    'A flow connects components.',
    'Run a flow through the API.',
    'Images found',
  ]);
  const [request] = tavily.requests.slice(seen);
  t.same(request!.body, {
    api_key: TAVILY_KEY,
    query: 'langflow flows',
    search_depth: 'advanced',
    topic: 'general',
    max_results: 5,
    include_images: true,
    include_answer: true,
    include_raw_content: false,
    days: 7,
    time_range: null,
    chunks_per_source: 3,
  });
});

t.test('domains are sent as lists and a basic search has no chunks_per_source', async (t) => {
  const template = { api_key: TAVILY_KEY, search_depth: 'basic', include_domains: 'a.example, b.example', exclude_domains: 'c.example', include_images: false, include_answer: false };
  const created = await createFlow(server, serviceFlow('TavilySearchComponent', template, 'query', 'dataframe', '{title}'));
  const seen = tavily.requests.length;
  const res = await run(created.id, 'q');
  t.same(chatText(await res.json()).split('\n'), ['What is a flow', 'Running flows'], 'no answer row, no images row');
  const [request] = tavily.requests.slice(seen);
  t.same(request!.body.include_domains, ['a.example', 'b.example']);
  t.same(request!.body.exclude_domains, ['c.example']);
  t.notOk('chunks_per_source' in request!.body);
});

t.test('the key comes from a stored global variable, or a request header naming one; missing, a 400 names the variable before any request', async (t) => {
  const stored = await createFlow(server, serviceFlow('TavilySearchComponent', { api_key: '' }, 'query', 'dataframe'));
  const seenBefore = tavily.requests.length;
  const missing = await run(stored.id, 'q');
  t.equal(missing.status, 400, 'nothing stored yet');
  t.match((await missing.json()).detail, /^Tavily needs an API key and the "Tavily API Key" field \(api_key\) is empty: Variable TAVILY_API_KEY not found/);
  t.equal(tavily.requests.length, seenBefore, 'Tavily was not asked');
  await storeVariable(server, 'TAVILY_API_KEY', TAVILY_KEY);
  t.equal((await run(stored.id, 'q')).status, 200, 'the empty field takes TAVILY_API_KEY');
  const named = await createFlow(server, serviceFlow('TavilySearchComponent', { api_key: { value: 'TAVILYHEADERKEY', load_from_db: true } }, 'query', 'dataframe'));
  const seen = tavily.requests.length;
  t.equal((await run(named.id, 'q', { 'X-LANGFLOW-GLOBAL-VAR-TAVILYHEADERKEY': TAVILY_KEY })).status, 200);
  t.equal(tavily.requests.length, seen + 1);
});

t.test('as an Agent tool, the query is the argument and the rows are the tool result', async (t) => {
  const created = await createFlow(server, agentToolFlow('Tavily agent', { id: 'TavilySearchComponent-t0001', type: 'TavilySearchComponent', template: { api_key: TAVILY_KEY } }, model.baseURL));
  model.script({ toolCalls: [{ name: 'fetch_content_dataframe', arguments: { query: 'what are flows' } }] }, repeatToolResult);
  const before = model.chats.length;
  const reply = await modelClient(server).flow(created.id).run('Search for flows');
  const [first, second] = model.chats.slice(before);
  const tool = first!.body.tools.find((x: any) => x.function.name === 'fetch_content_dataframe');
  t.same(Object.keys(tool.function.parameters.properties), ['query']);
  t.equal(tavily.requests.at(-1)!.body.query, 'what are flows');
  t.match(toolMessageOf(second!), /Flows are graphs of components \(about what are flows\)/);
  t.match(toolMessageOf(second!), /https:\/\/docs\.example\/flows/);
  t.match(reply.chatOutputText(), /^Tool said: /);
});
