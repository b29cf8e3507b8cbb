/** The real Langflow export in ../shared/langflow-starters round-trips through upload and download. */
import t from 'tap';
import { starterFlow, upload } from '../test/support/flow-helpers.js';
import { startTestServer } from '../test/support/server.js';

t.test('a real Langflow export round-trips: upload, download, same data', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const original = starterFlow('Basic Prompting');
  const [created] = await (await upload(server, '/api/v1/flows/upload/', JSON.stringify(original), 'Basic Prompting.json')).json();
  t.match(created, { name: 'Basic Prompting', description: original.description, tags: original.tags, webhook: false });
  const downloaded = await (await server.request('/api/v1/flows/download/', { method: 'POST', json: [created.id] })).json();
  t.same(downloaded.data, original.data);
  const again = await upload(server, '/api/v1/flows/upload/', JSON.stringify(downloaded));
  const [copy] = await again.json();
  t.equal(copy.name, 'Basic Prompting (1)', 'a re-import is a new flow with a new name');
  t.same(copy.data, original.data);
});
