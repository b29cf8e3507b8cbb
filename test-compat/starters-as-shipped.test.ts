/**
 * Langflow's current starters (../shared/langflow-starters/current/) as a new user meets them: every template whose
 * node types this service runs is uploaded unchanged, with its empty model fields, and run with only an input
 * through the Langflow client, on a service started with OPENAI_BASE_URL (the local model server) and
 * OPENAI_API_KEY set and nothing else configured. Templates that read a file the user attaches, or fetch fixed
 * pages on the internet (which tests never reach), fail as shipped naming that node, never a model field; given the
 * file or a local page in the run's tweaks, their model fields as shipped do the rest. The others are refused with
 * every node they lack.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { unrunnableNodes } from '../src/langflow/to-graph.js';
import { upload } from '../test/support/flow-helpers.js';
import { httpFixture, type HttpFixture } from '../test/support/http-fixture.js';
import { startModelServer, type ModelServer, type RecordedRequest } from '../test/support/model-server.js';
import { startTestServer, type TestServer } from '../test/support/server.js';
import { startersDir } from '../test/support/shared.js';

const dir = join(startersDir(), 'current');
const templates = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({ file, flow: JSON.parse(readFileSync(join(dir, file), 'utf8')) }));
const runnable = templates.filter(({ flow }) => unrunnableNodes(flow.data).length === 0);
const refused = templates.filter(({ flow }) => unrunnableNodes(flow.data).length > 0);

/** A JSON document in the shape a structured-output request asks for: one row, every field a string. */
function jsonFor(request: RecordedRequest) {
  const schema = request.body.response_format?.json_schema?.schema;
  const row = schema?.properties?.objects?.items?.properties ?? {};
  return { objects: [Object.fromEntries(Object.keys(row).map((key) => [key, `some ${key}`]))] };
}

/** Nodes the user must feed before a run: File nodes with no file, URL nodes fetching the internet. */
const FEEDS: Record<string, 'file' | 'url'> = { File: 'file', URLComponent: 'url', URL: 'url' };
const fedNodes = (flow: any): { id: string; feed: 'file' | 'url' }[] =>
  flow.data.nodes.filter((n: any) => FEEDS[n.data?.type]).map((n: any) => ({ id: n.id, feed: FEEDS[n.data.type] }));

let model: ModelServer;
let server: TestServer;
let pages: HttpFixture;
let uploadedPath: string;
t.before(async () => {
  model = await startModelServer({ fallback: (request) => (request.body?.response_format ? { json: jsonFor(request) } : undefined) });
  pages = await httpFixture({ '/page': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Flows</h1><p>A local page.</p></body></html>') });
  process.env.OPENAI_BASE_URL = model.baseURL;
  process.env.OPENAI_API_KEY = 'sk-from-the-environment';
  // The local page is on loopback: the private-network guard would refuse it (it refuses nothing else here).
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'true', ALLOW_PRIVATE_NETWORK: 'true' });
  const form = new FormData();
  form.append('file', new Blob(['Revenue grew 12% this quarter; the team shipped three releases.'], { type: 'text/plain' }), 'report.txt');
  uploadedPath = (await (await server.request('/api/v2/files', { method: 'POST', body: form })).json()).path;
});
t.teardown(async () => {
  await server.close();
  await pages.close();
  await model.close();
});

t.test('the catalogue splits as the issue counts it: 15 templates run here, 18 lack components', async (t) => {
  t.equal(templates.length, 33);
  t.equal(runnable.length, 15, runnable.map((r) => r.file).join(', '));
  t.equal(refused.length, 18);
});

for (const { file, flow } of runnable) {
  t.test(`${file} runs as shipped, with only an input`, async (t) => {
    const res = await upload(server, '/api/v1/flows/upload/', JSON.stringify(flow), file);
    t.equal(res.status, 201);
    const [created] = await res.json();
    t.notOk('unsupported_nodes' in created, 'every node runs here');
    const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
    const tweaks: Record<string, Record<string, string | string[]>> = {};
    const asShipped = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'Tell me about flows' } });
    if (asShipped.status !== 200) {
      const fed = fedNodes(flow);
      const { detail } = await asShipped.json();
      t.ok(fed.some(({ id }) => detail.includes(`(${id})`)), `as shipped it stops only at what the user must feed: ${detail}`);
      t.notMatch(detail, /model/i, 'never at a model field');
      for (const { id, feed } of fed) tweaks[id] = feed === 'file' ? { path: [uploadedPath] } : { urls: [`${pages.url}/page`] };
    }
    const before = model.chats.length;
    const reply = await client.flow(created.id).run('Tell me about flows', { tweaks: tweaks as never }) // the client's Tweak type has no lists; it sends them as given;
    t.ok(reply.outputs.length > 0, 'it answered');
    const calls = model.chats.slice(before);
    t.ok(calls.length > 0, 'the model was called');
    for (const call of calls) {
      t.equal(call.headers.authorization, 'Bearer sk-from-the-environment', 'with the environment key');
      t.equal(call.body.model, 'gpt-4o-mini', 'the first enabled provider\'s default model');
    }
  });
}

t.test('each other template is one 400 listing every node it lacks', async (t) => {
  for (const { file, flow } of refused) {
    const res = await upload(server, '/api/v1/flows/upload/', JSON.stringify(flow), file);
    const [created] = await res.json();
    const lacking = unrunnableNodes(flow.data);
    t.same(created.unsupported_nodes, lacking, `${file}: the upload says what will not run`);
    const run = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi' } });
    t.equal(run.status, 400, file);
    const body = await run.json();
    t.same(body.unsupported_nodes, lacking, `${file}: the run lists the same nodes`);
    for (const node of lacking) t.ok(body.detail.includes(`${node.id} (${node.type}, "${node.display_name}"): ${node.reason}`), `${file}: ${node.id}`);
  }
});
