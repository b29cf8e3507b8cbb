/**
 * arXiv against a local stand-in of its export API (FLOWSVC_ARXIV_BASE_URL), through the HTTP edge: the query it
 * sends, the rows it makes of the Atom feed, and failures as a one-row error table, as Langflow's component does.
 */
import t from 'tap';
import { startArxivStandIn } from './support/arxiv-stand-in.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { RETRY_AFTER_SECONDS, type ServiceStandIn } from './support/service-stand-in.js';
import { startTestServer, type TestServer } from './support/server.js';
import { buildEvents, startBuild } from './support/builds.js';

let arxiv: ServiceStandIn;
let server: TestServer;
let restore: () => void;

t.before(async () => {
  arxiv = await startArxivStandIn();
  restore = arxiv.setBaseUrl('FLOWSVC_ARXIV_BASE_URL');
  server = await startTestServer({ ALLOW_PRIVATE_NETWORK: 'false' });
});
t.teardown(async () => {
  restore();
  await server.close();
  await arxiv.close();
});
t.afterEach(() => {
  arxiv.mode = 'ok';
});

/** Builds ChatInput -> arXiv -> ChatOutput and returns the arXiv vertex's table rows. */
async function search(template: Record<string, unknown>, input = 'quantum computing'): Promise<any[]> {
  const created = await createFlow(server, flow('arXiv search', [node('ChatInput-in001', 'ChatInput'), node('ArXivComponent-a1', 'ArXivComponent', template, 'arXiv'), node('ChatOutput-out01', 'ChatOutput')], [
    edge('ChatInput-in001', 'message', 'ArXivComponent-a1', 'search_query'),
    edge('ArXivComponent-a1', 'dataframe', 'ChatOutput-out01', 'input_value'),
  ]));
  const jobId = await startBuild(server, created.id, { inputs: { input_value: input } });
  const events = await buildEvents(server, jobId);
  const built = events.find((e) => e.event === 'end_vertex' && e.data.build_data.id === 'ArXivComponent-a1');
  if (!built) throw new Error(`no arXiv vertex in ${JSON.stringify(events.map((e) => e.event))}`);
  const output = built.data.build_data.data.outputs.dataframe;
  return output.message;
}

t.test('a search sends the prefixed query and the limit, and makes one row per paper', async (t) => {
  const rows = await search({ search_type: 'title', max_results: 2 });
  const request = arxiv.seen.at(-1)!;
  t.equal(request.path, '/api/query');
  t.equal(request.query.get('search_query'), 'ti:quantum computing');
  t.equal(request.query.get('max_results'), '2');
  t.equal(rows.length, 2);
  t.same(rows[0], {
    id: 'http://arxiv.org/abs/2401.00001v1',
    title: 'Paper 1 on ti:quantum computing',
    summary: 'An abstract about ti:quantum computing, number 1.',
    published: '2024-01-01T00:00:00Z',
    updated: '2024-01-01T00:00:00Z',
    authors: ['Ada Lovelace', 'Alan Turing'],
    arxiv_url: 'http://arxiv.org/abs/2401.00001v1',
    pdf_url: 'http://arxiv.org/pdf/2401.00001v1',
    comment: '12 pages',
    journal_ref: null,
    primary_category: 'cs.AI',
    categories: ['cs.AI', 'cs.LG'],
  });
  await search({ search_type: 'all' }, 'a/b');
  t.match(arxiv.seen.at(-1)!.url, /search_query=a\/b&max_results=10$/, '"all" has no prefix; "/" stays as Python\'s quote leaves it');
});

t.test('failures are a one-row table whose error names arXiv', async (t) => {
  arxiv.mode = 'rate-limited';
  t.same(await search({}), [{ error: `Request error: arXiv is limiting requests (429); it asks to retry after ${RETRY_AFTER_SECONDS} s` }]);
  arxiv.mode = 'huge';
  t.same(await search({}), [{ error: "Request error: arXiv's answer is larger than 16 MB; it was not read" }]);
  arxiv.mode = 'silent';
  process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS = '0.5';
  try {
    t.same(await search({}), [{ error: 'Request error: arXiv did not answer within 0.5 s' }]);
  } finally {
    delete process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS;
  }
});
