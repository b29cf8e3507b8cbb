/**
 * Yahoo! Finance against a local stand-in of Yahoo's web API (FLOWSVC_YFINANCE_BASE_URL), through the HTTP edge:
 * news rows, data printed as pprint prints it (behind the cookie and crumb), corporate actions, failures naming
 * the service, and as an Agent's tool.
 */
import t from 'tap';
import { buildEvents, startBuild } from './support/builds.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startModelServer, type ModelServer, type RecordedRequest } from './support/model-server.js';
import { keyVariable, modelClient } from './support/model-flows.js';
import { RETRY_AFTER_SECONDS, type ServiceStandIn } from './support/service-stand-in.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startYfinanceStandIn } from './support/yfinance-stand-in.js';

let yahoo: ServiceStandIn;
let model: ModelServer;
let server: TestServer;
let restore: () => void;

t.before(async () => {
  yahoo = await startYfinanceStandIn();
  model = await startModelServer();
  restore = yahoo.setBaseUrl('FLOWSVC_YFINANCE_BASE_URL');
  server = await startTestServer({ ALLOW_PRIVATE_NETWORK: 'false', FALLBACK_TO_ENV_VAR: 'false' });
});
t.teardown(async () => {
  restore();
  await server.close();
  await model.close();
  await yahoo.close();
});
t.afterEach(() => {
  yahoo.mode = 'ok';
});

async function rows(template: Record<string, unknown>): Promise<{ rows?: any[]; error?: string }> {
  const created = await createFlow(server, flow('Yahoo', [node('YfinanceComponent-y1', 'YfinanceComponent', { symbol: 'NVDA', ...template }, 'Yahoo! Finance'), node('ChatOutput-out01', 'ChatOutput')], [edge('YfinanceComponent-y1', 'dataframe', 'ChatOutput-out01', 'input_value')]));
  const events = await buildEvents(server, await startBuild(server, created.id));
  const built = events.find((e) => e.event === 'end_vertex' && e.data.build_data.id === 'YfinanceComponent-y1');
  if (built?.data.build_data.valid) return { rows: built.data.build_data.data.outputs.dataframe.message };
  return { error: JSON.stringify(events.find((e) => e.event === 'error' || (e.event === 'end_vertex' && !e.data.build_data.valid))?.data) };
}

t.test('news: as many articles as asked, one row each with "title: link" as text', async (t) => {
  const { rows: news } = await rows({ method: 'get_news', num_news: 2 });
  t.equal(news!.length, 2);
  t.match(news![0], { title: 'NVDA news 1', link: 'https://news.test/NVDA/1', text: 'NVDA news 1: https://news.test/NVDA/1' });
  t.equal(yahoo.seen.at(-1)!.query.get('q'), 'NVDA');
});

t.test('info behind the session cookie and crumb, printed as Python prints it', async (t) => {
  const { rows: info } = await rows({ method: 'get_info' });
  t.equal(info!.length, 1);
  t.match(info![0].result, /^\{'module': '[a-zA-Z]+', 'symbol': 'NVDA'.*'longName': 'NVDA Inc\.'\}$/, 'the modules merged into one dict');
  t.equal(info![0].text, info![0].result);
  const paths = yahoo.seen.slice(-3).map((r) => r.path);
  t.same(paths, ['/', '/v1/test/getcrumb', '/v10/finance/quoteSummary/NVDA']);
  const { rows: actions } = await rows({ method: 'get_actions' });
  t.match(actions![0].result, /'dividends': \[\{'amount': 0\.24/);
  t.match(actions![0].result, /'splitRatio': '4:1'/);
});

t.test('failures name Yahoo! Finance', async (t) => {
  yahoo.mode = 'rate-limited';
  t.match((await rows({})).error, new RegExp(`Yahoo! Finance is limiting requests \\(429\\); it asks to retry after ${RETRY_AFTER_SECONDS} s`));
  yahoo.mode = 'unauthorized';
  t.match((await rows({ method: 'get_info' })).error, /Yahoo! Finance gave no session cookie|Yahoo! Finance refused the API key \(401\)/);
});

const toolMessage = (request: RecordedRequest) => request.body.messages.find((m: { role: string }) => m.role === 'tool');

t.test('as an Agent tool: the news reach the model, and so does a failure', async (t) => {
  const created = await createFlow(server, flow('Yahoo agent', [
    node('ChatInput-in001', 'ChatInput'),
    node('YfinanceComponent-y1', 'YfinanceComponent', { method: 'get_news', num_news: 1 }, 'Yahoo! Finance'),
    node('Agent-a1', 'Agent', { agent_llm: 'OpenAI', model_name: 'gpt-4o-mini', api_key: keyVariable(), openai_api_base: model.baseURL, add_current_date_tool: false }, 'Agent'),
    node('ChatOutput-out01', 'ChatOutput'),
  ], [
    edge('ChatInput-in001', 'message', 'Agent-a1', 'input_value'),
    edge('YfinanceComponent-y1', 'component_as_tool', 'Agent-a1', 'tools'),
    edge('Agent-a1', 'response', 'ChatOutput-out01', 'input_value'),
  ]));
  const client = modelClient(server).flow(created.id);
  model.script({ toolCalls: [{ name: 'fetch_content_dataframe', arguments: { symbol: 'AAPL' } }] }, (request) => ({ text: `Tool said: ${toolMessage(request)?.content}` }));
  t.match((await client.run('News on Apple?')).chatOutputText(), /^Tool said: [^]*AAPL news 1: https:\/\/news.test\/AAPL\/1/);
  yahoo.mode = 'rate-limited';
  model.script({ toolCalls: [{ name: 'fetch_content_dataframe', arguments: { symbol: 'AAPL' } }] }, (request) => ({ text: `Tool said: ${toolMessage(request)?.content}` }));
  t.match((await client.run('News on Apple?')).chatOutputText(), /^Tool said: [^]*Yahoo! Finance is limiting requests \(429\)/);
});
