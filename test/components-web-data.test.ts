/**
 * AgentQL, ScrapeGraph's search and SearchApi against their local stand-ins (FLOWSVC_<SERVICE>_BASE_URL), through
 * the HTTP edge: the request each sends, where its key goes, and what it makes of the answer. Failures common to
 * every service are in service-failures.test.ts.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { startTestServer } from './support/server.js';
import { AGENTQL_KEY, agentqlStandIn } from './support/agentql-stand-in.js';
import { SCRAPEGRAPH_KEY, scrapegraphStandIn } from './support/scrapegraph-stand-in.js';
import { SEARCHAPI_KEY, searchapiStandIn } from './support/searchapi-stand-in.js';
import { chatText, serviceFlow } from './support/service-flows.js';

const [agentqlApi, scrapegraphApi, searchApi] = await Promise.all([agentqlStandIn(), scrapegraphStandIn(), searchapiStandIn()]);
process.env.FLOWSVC_AGENTQL_BASE_URL = agentqlApi.url;
process.env.FLOWSVC_SCRAPEGRAPH_BASE_URL = scrapegraphApi.url;
process.env.FLOWSVC_SEARCHAPI_BASE_URL = `${searchApi.url}/`;
const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
t.teardown(async () => {
  await server.close();
  for (const standIn of [agentqlApi, scrapegraphApi, searchApi]) await standIn.close();
});

const run = async (flow: Record<string, unknown>, input: string) => {
  const created = await createFlow(server, flow);
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: input } });
  return { status: res.status, body: await res.json() };
};

t.test('AgentQL sends the page, the prompt and the params, and returns data and metadata as one Data', async (t) => {
  const flow = serviceFlow('AgentQL', { api_key: AGENTQL_KEY, url: 'https://shop.example/deals', mode: 'standard', wait_for: 2, is_stealth_mode_enabled: true }, 'prompt', 'data', '{result} / {metadata}');
  const { status, body } = await run(flow, 'every product and its price');
  t.equal(status, 200);
  const request = agentqlApi.requests.at(-1)!;
  t.equal(request.headers['x-tf-request-origin'], 'langflow');
  t.same(request.body, {
    url: 'https://shop.example/deals',
    query: '',
    prompt: 'every product and its price',
    params: { mode: 'standard', wait_for: 2, is_scroll_to_bottom_enabled: false, is_screenshot_enabled: false },
    metadata: { experimental_stealth_mode_enabled: true },
  });
  t.match(chatText(body), /Flow kit/);
  t.match(chatText(body), /req-1/);
});

t.test('AgentQL wants a query or a prompt, not both, and says so before calling', async (t) => {
  const seen = agentqlApi.requests.length;
  const neither = await run(serviceFlow('AgentQL', { api_key: AGENTQL_KEY, url: 'https://shop.example/' }, 'url', 'data'), 'https://shop.example/');
  t.match(neither.body.detail, /Either Query or Prompt must be provided\./);
  const both = await run(serviceFlow('AgentQL', { api_key: AGENTQL_KEY, url: 'https://shop.example/', query: '{ products[] }' }, 'prompt', 'data'), 'the products');
  t.match(both.body.detail, /Both Query and Prompt can't be provided at the same time\./);
  t.equal(agentqlApi.requests.length, seen, 'AgentQL was not asked');
});

t.test('ScrapeGraph returns the SearchScraper answer as one Data', async (t) => {
  const { status, body } = await run(serviceFlow('ScrapeGraphSearchApi', { api_key: SCRAPEGRAPH_KEY }, 'user_prompt', 'data', '{result} {reference_urls}'), 'what are flows');
  t.equal(status, 200);
  t.same(scrapegraphApi.requests.at(-1)!.body, { user_prompt: 'what are flows' });
  t.match(chatText(body), /Found about: what are flows/);
  t.match(chatText(body), /docs\.example\/flows/);
});

t.test('a ScrapeGraph search still processing is polled until it completes', async (t) => {
  const seen = scrapegraphApi.requests.length;
  const { status, body } = await run(serviceFlow('ScrapeGraphSearchApi', { api_key: SCRAPEGRAPH_KEY }, 'user_prompt', 'data', '{result}'), 'search slowly');
  t.equal(status, 200);
  t.match(chatText(body), /Found about: search slowly/);
  t.same(scrapegraphApi.requests.slice(seen).map((r) => `${r.method} ${r.path}`), ['POST /v1/searchscraper', 'GET /v1/searchscraper/sg-1', 'GET /v1/searchscraper/sg-1', 'GET /v1/searchscraper/sg-1']);
});

t.test('SearchApi sends the engine, the query and the extra parameters, and keeps max_results rows cut to max_snippet_length', async (t) => {
  const template = { api_key: SEARCHAPI_KEY, engine: 'bing', max_results: 2, max_snippet_length: 12, search_params: [{ location: 'Lisbon' }, { num: 10 }] };
  const { status, body } = await run(serviceFlow('SearchComponent', template, 'input_value', 'dataframe', '{title} | {link} | {snippet}'), 'flights');
  t.equal(status, 200);
  const request = searchApi.requests.at(-1)!;
  t.equal(request.headers.authorization, `Bearer ${SEARCHAPI_KEY}`);
  t.same(Object.fromEntries(request.query), { engine: 'bing', q: 'flights', location: 'Lisbon', num: '10' });
  t.same(chatText(body).split('\n'), ['Result 1 for | https://travel.example/1 | Snippet 1 Sn', 'Result 2 for | https://travel.example/2 | Snippet 2 Sn']);
});

t.test('a base URL that is not a URL fails the run naming the setting', async (t) => {
  process.env.FLOWSVC_SEARCHAPI_BASE_URL = 'not a url';
  t.teardown(() => void (process.env.FLOWSVC_SEARCHAPI_BASE_URL = searchApi.url));
  const { body } = await run(serviceFlow('SearchComponent', { api_key: SEARCHAPI_KEY }, 'input_value', 'dataframe'), 'flights');
  t.match(body.detail, /FLOWSVC_SEARCHAPI_BASE_URL=not a url is not a URL/);
});
