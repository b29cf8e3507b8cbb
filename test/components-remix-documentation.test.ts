/**
 * RTX Remix Documentation against a local stand-in of the documentation site (FLOWSVC_REMIX_DOCS_BASE_URL), through
 * the HTTP edge: the entries of searchindex.js as rows and Data, excluded prefixes, and failures.
 */
import t from 'tap';
import { buildEvents, startBuild } from './support/builds.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startServiceStandIn, type ServiceStandIn } from './support/service-stand-in.js';
import { startTestServer, type TestServer } from './support/server.js';

const INDEX = {
  data: [
    { filename: 'docs/howto/learning-ingestion.html', anchor: 'ingest-assets', display_name: 'Ingesting Assets', content: 'Drag your textures into the ingestion tab.' },
    { filename: 'docs/changelog/1.0.html', anchor: '', display_name: 'Changelog', content: 'Fixed things.' },
    { filename: 'index.html', anchor: '', display_name: 'RTX Remix', content: 'RTX Remix is a modding platform.' },
    { filename: 'empty.html', anchor: '', display_name: 'Empty', content: '' },
  ],
};
let docs: ServiceStandIn;
let server: TestServer;
let restore: () => void;
let script = `var x = 1;\nconst searchData = ${JSON.stringify(INDEX)};\n`;

t.before(async () => {
  docs = await startServiceStandIn({ 'GET /rtx_remix/latest/searchindex.js': (_req, res) => void res.writeHead(200, { 'content-type': 'application/javascript' }).end(script) });
  restore = docs.setBaseUrl('FLOWSVC_REMIX_DOCS_BASE_URL', '/rtx_remix/latest/');
  server = await startTestServer({ ALLOW_PRIVATE_NETWORK: 'false' });
});
t.teardown(async () => {
  restore();
  await server.close();
  await docs.close();
});

async function outputs(template: Record<string, unknown> = {}) {
  const created = await createFlow(server, flow('Remix docs', [node('RemixDocumentation-r1', 'RemixDocumentation', template, 'RTX Remix Documentation'), node('ChatOutput-out01', 'ChatOutput')], [edge('RemixDocumentation-r1', 'dataframe_output', 'ChatOutput-out01', 'input_value')]));
  const events = await buildEvents(server, await startBuild(server, created.id));
  const built = events.find((e) => e.event === 'end_vertex' && e.data.build_data.id === 'RemixDocumentation-r1')!;
  return built.data.build_data;
}

t.test('the index entries with text, minus the excluded prefixes, as rows with their URLs', async (t) => {
  const built = await outputs();
  const base = `${docs.url}/rtx_remix/latest`;
  t.same(built.data.outputs.dataframe_output.message, [
    { title: 'Ingesting Assets', text: 'Drag your textures into the ingestion tab.', url: `${base}/docs/howto/learning-ingestion.html#ingest-assets` },
    { title: 'RTX Remix', text: 'RTX Remix is a modding platform.', url: `${base}/index.html` },
  ]);
  const all = await outputs({ exclude_paths: [] });
  t.equal(all.data.outputs.dataframe_output.message.length, 3, 'nothing excluded: the changelog too');
});

t.test('an index with nothing left is one "No documentation found" row; a broken one fails naming the problem', async (t) => {
  const none = await outputs({ exclude_paths: ['docs', 'index'] });
  t.match(none.data.outputs.dataframe_output.message, [{ title: 'No documentation found' }]);
  script = 'window.search = {};';
  const broken = await outputs();
  t.equal(broken.valid, false);
  t.match(JSON.stringify(broken), /Could not parse search index data/);
  docs.mode = 'rate-limited';
  t.match(JSON.stringify(await outputs()), /The RTX Remix documentation is limiting requests \(429\)/);
});
