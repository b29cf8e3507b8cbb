/** Flows in and out over real HTTP: batch, upload, download (JSON and ZIP), public flows, shipped examples. */
import { zipSync, strToU8 } from 'fflate';
import t from 'tap';
import basicPrompting from '../examples/basic-prompting.json' with { type: 'json' };
import { createFlow, flowBody, upload, zipEntries } from './support/flow-helpers.js';
import { startTestServer } from './support/server.js';

/** A flow whose LLM node holds a literal API key and a variable reference. */
function flowWithSecrets(name: string) {
  const body = flowBody(name);
  body.data.nodes[0].data.node.template = {
    api_key: { name: 'api_key', type: 'str', password: true, load_from_db: false, value: 'sk-live-secret' },
    from_var: { name: 'from_var', type: 'str', password: true, load_from_db: true, value: 'OPENAI_API_KEY' },
    plain: { name: 'plain', type: 'str', value: 'visible' },
  };
  return body;
}

t.test('flow transfer', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  t.test('batch creates in order, de-duplicating names', async (t) => {
    const res = await server.request('/api/v1/flows/batch/', { method: 'POST', json: { flows: [flowBody('Batch'), flowBody('Batch')] } });
    t.equal(res.status, 201);
    t.same((await res.json()).map((f: any) => f.name), ['Batch', 'Batch (1)']);
    const bad = await server.request('/api/v1/flows/batch/', { method: 'POST', json: { flows: [{ description: 'nameless' }] } });
    t.equal(bad.status, 422);
  });

  t.test('upload one flow, and {"flows": [...]} into a chosen folder', async (t) => {
    const single = await upload(server, '/api/v1/flows/upload/', JSON.stringify(flowBody('Uploaded')));
    t.equal(single.status, 201);
    const [one] = await single.json();
    t.equal(one.name, 'Uploaded');
    t.same(one.data, flowBody('Uploaded').data);

    const project = await (await server.request('/api/v1/projects/', { method: 'POST', json: { name: 'Upload target' } })).json();
    const list = await upload(server, `/api/v1/flows/upload/?folder_id=${project.id}`, JSON.stringify({ flows: [flowBody('U1'), flowBody('U2')] }));
    t.equal(list.status, 201);
    const flows = await list.json();
    t.same(flows.map((f: any) => [f.name, f.folder_id]), [['U1', project.id], ['U2', project.id]]);
  });

  t.test('upload refusals', async (t) => {
    t.equal((await upload(server, '/api/v1/flows/upload/', '{"name": ')).status, 400, 'a file that is not JSON');
    const nameless = await upload(server, '/api/v1/flows/upload/', JSON.stringify({ flows: [flowBody('ok'), { data: null }] }));
    t.equal(nameless.status, 422);
    t.match((await nameless.json()).detail, [{ loc: ['body', 'file', 'flows', 1, 'name'], type: 'missing' }]);
    const noFile = new FormData();
    noFile.append('other', 'x');
    const missing = await server.request('/api/v1/flows/upload/', { method: 'POST', body: noFile });
    t.equal(missing.status, 422);
  });

  t.test('download one flow as JSON, secrets nulled but variable names kept', async (t) => {
    const flow = await createFlow(server, flowWithSecrets('Secretive'));
    const res = await server.request('/api/v1/flows/download/', { method: 'POST', json: [flow.id] });
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /application\/json/);
    const exported = await res.json();
    t.equal(exported.id, flow.id);
    const template = exported.data.nodes[0].data.node.template;
    t.equal(template.api_key.value, null);
    t.equal(template.from_var.value, 'OPENAI_API_KEY');
    t.equal(template.plain.value, 'visible');
    const stored = await (await server.request(`/api/v1/flows/${flow.id}`)).json();
    t.equal(stored.data.nodes[0].data.node.template.api_key.value, 'sk-live-secret', 'the stored flow keeps its key');
  });

  t.test('download several as a ZIP of <name>.json', async (t) => {
    const a = await createFlow(server, flowWithSecrets('Zip A'));
    const b = await createFlow(server, flowBody('Zip B'));
    const res = await server.request('/api/v1/flows/download/', { method: 'POST', json: [a.id, b.id] });
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'application/zip');
    t.match(res.headers.get('content-disposition'), /^attachment; filename=\d{8}_\d{6}_langflow_flows\.zip$/);
    const entries = await zipEntries(res);
    t.same(Object.keys(entries).sort(), ['Zip A.json', 'Zip B.json']);
    t.equal(entries['Zip B.json'].id, b.id);
    t.same(entries['Zip B.json'].data, b.data);
    t.equal(entries['Zip A.json'].data.nodes[0].data.node.template.api_key.value, null);
    const none = await server.request('/api/v1/flows/download/', { method: 'POST', json: ['0b5e7d6c-1234-4a5b-8c9d-0123456789ab'] });
    t.same([none.status, await none.json()], [404, { detail: 'No flows found.' }]);
  });

  t.test('a Langflow-format export round-trips: upload, download, same data', async (t) => {
    const { id: _shippedId, ...original } = structuredClone(basicPrompting) as Record<string, any>;
    const [created] = await (await upload(server, '/api/v1/flows/upload/', JSON.stringify(original), 'Basic Prompting.json')).json();
    t.match(created, { name: 'Basic Prompting', description: original.description, tags: original.tags, webhook: false });
    const downloaded = await (await server.request('/api/v1/flows/download/', { method: 'POST', json: [created.id] })).json();
    t.same(downloaded.data, original.data);
    const again = await upload(server, '/api/v1/flows/upload/', JSON.stringify(downloaded));
    const [copy] = await again.json();
    t.equal(copy.name, 'Basic Prompting (1)', 'a re-import is a new flow with a new name');
    t.not(copy.id, created.id);
    t.same(copy.data, original.data);
  });

  t.test('upload accepts the ZIP a download produces', async (t) => {
    const zip = zipSync({ 'One.json': strToU8(JSON.stringify(flowBody('From zip 1'))), 'Two.json': strToU8(JSON.stringify(flowBody('From zip 2'))) });
    const res = await upload(server, '/api/v1/flows/upload/', zip, 'flows.zip');
    t.equal(res.status, 201);
    t.same((await res.json()).map((f: any) => f.name).sort(), ['From zip 1', 'From zip 2']);
  });

  t.test('public_flow needs no credentials and only serves PUBLIC flows', async (t) => {
    const flow = await createFlow(server, flowWithSecrets('Shared'));
    const hidden = await server.request(`/api/v1/flows/public_flow/${flow.id}`, { key: null });
    t.same([hidden.status, await hidden.json()], [403, { detail: 'Flow is not public' }]);
    await server.request(`/api/v1/flows/${flow.id}`, { method: 'PATCH', json: { access_type: 'PUBLIC' } });
    const shown = await server.request(`/api/v1/flows/public_flow/${flow.id}`, { key: null });
    t.equal(shown.status, 200);
    const body = await shown.json();
    t.equal(body.id, flow.id);
    t.equal(body.data.nodes[0].data.node.template.api_key.value, null, 'no secrets for anonymous readers');
  });

  t.test('basic_examples and starter-projects serve our shipped flows', async (t) => {
    const res = await server.request('/api/v1/flows/basic_examples/', { key: null });
    t.equal(res.status, 200);
    const examples = await res.json();
    t.same(examples.map((f: any) => f.name).sort(), ['Basic Prompting', 'Echo']);
    const basic = examples.find((f: any) => f.name === 'Basic Prompting');
    t.match(basic, { user_id: null, is_component: false, access_type: 'PRIVATE' });
    t.same(basic.data.nodes.map((n: any) => n.data.type), ['ChatInput', 'Prompt', 'LanguageModelComponent', 'ChatOutput']);
    const ids = new Set(basic.data.nodes.map((n: any) => n.id));
    t.ok(basic.data.edges.every((e: any) => ids.has(e.source) && ids.has(e.target) && e.data.sourceHandle.id === e.source && e.data.targetHandle.id === e.target));
    const starters = await (await server.request('/api/v1/starter-projects/')).json();
    t.same(starters.map((s: any) => Object.keys(s).sort()), [0, 1].map(() => ['data', 'description', 'endpoint_name', 'is_component', 'name']));
    t.same(starters.find((s: any) => s.name === 'Basic Prompting').data, basic.data);
  });
});
