/** /api/v1/flows CRUD over real HTTP: Langflow 1.7 shapes, naming rules, listing modes and refusals. */
import t from 'tap';
import { createFlow, flowBody } from './support/flow-helpers.js';
import { startTestServer } from './support/server.js';

const FLOW_READ_KEYS = [
  'access_type', 'action_description', 'action_name', 'data', 'description', 'endpoint_name', 'folder_id', 'gradient', 'icon',
  'icon_bg_color', 'id', 'is_component', 'locked', 'mcp_enabled', 'name', 'tags', 'updated_at', 'user_id', 'webhook',
];

t.test('flows CRUD', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const whoami = await (await server.request('/api/v1/users/whoami')).json();
  const projects = await (await server.request('/api/v1/projects/')).json();
  const defaultProject = projects.find((p: any) => p.name === 'Starter Project');

  t.test('create answers 201 with a FlowRead in the default project, data as given', async (t) => {
    const body = flowBody('Created', { endpoint_name: 'created-ep', tags: ['a'], last_tested_version: '1.7.1', id: 'ignored' });
    const res = await server.request('/api/v1/flows/', { method: 'POST', json: body });
    t.equal(res.status, 201);
    const flow = await res.json();
    t.same(Object.keys(flow).sort(), FLOW_READ_KEYS);
    t.match(flow, { name: 'Created', endpoint_name: 'created-ep', tags: ['a'], user_id: whoami.id, folder_id: defaultProject.id, webhook: false, access_type: 'PRIVATE', is_component: false, locked: false });
    t.match(flow.id, /^[0-9a-f-]{36}$/);
    t.not(flow.id, 'ignored', 'an id in the body is ignored, as FlowCreate has none');
    t.same(flow.data, body.data);
    t.same(await (await server.request(`/api/v1/flows/${flow.id}`)).json(), flow, 'read back identical');
  });

  t.test('webhook is computed from the nodes on create and on patch', async (t) => {
    const body = flowBody('Hooked');
    body.data.nodes.push({ id: 'Webhook-xyz12', type: 'genericNode', data: { id: 'Webhook-xyz12', type: 'Webhook', node: { template: {} } } });
    const flow = await createFlow(server, body);
    t.equal(flow.webhook, true);
    const patched = await (await server.request(`/api/v1/flows/${flow.id}`, { method: 'PATCH', json: { data: flowBody('x').data } })).json();
    t.equal(patched.webhook, false);
  });

  t.test('duplicate names become "Name (n)" and endpoint names "ep-n"', async (t) => {
    const first = await createFlow(server, flowBody('Dup', { endpoint_name: 'dup-ep' }));
    const second = await createFlow(server, flowBody('Dup', { endpoint_name: 'dup-ep' }));
    const third = await createFlow(server, flowBody('Dup', { endpoint_name: 'dup-ep' }));
    t.same([first.name, second.name, third.name], ['Dup', 'Dup (1)', 'Dup (2)']);
    t.same([first.endpoint_name, second.endpoint_name, third.endpoint_name], ['dup-ep', 'dup-ep-1', 'dup-ep-2']);
    await createFlow(server, flowBody('Gap (7)'));
    t.equal((await createFlow(server, flowBody('Gap'))).name, 'Gap', 'a free name is kept');
    t.equal((await createFlow(server, flowBody('Gap'))).name, 'Gap (8)', 'max existing n + 1');
  });

  t.test('20 concurrent creates of one name all succeed with distinct names', async (t) => {
    const results = await Promise.all(Array.from({ length: 20 }, () => server.request('/api/v1/flows/', { method: 'POST', json: flowBody('Rush', { endpoint_name: 'rush' }) })));
    t.same(results.map((r) => r.status), Array(20).fill(201));
    const flows = await Promise.all(results.map((r) => r.json()));
    const names = new Set(flows.map((f) => f.name));
    t.equal(names.size, 20);
    t.ok(names.has('Rush') && names.has('Rush (19)'), 'Rush, Rush (1) .. Rush (19)');
    t.equal(new Set(flows.map((f) => f.endpoint_name)).size, 20);
  });

  t.test('a flow that cannot run is stored and read back identical', async (t) => {
    const body = flowBody('Broken');
    body.data.nodes.push({ id: 'Mystery-zz9', type: 'genericNode', data: { id: 'Mystery-zz9', type: 'NoSuchComponent', node: { template: {} } } });
    body.data.edges.push({ id: 'dangling', source: 'Ghost-000', target: 'ChatOutput-bbbb2', sourceHandle: 'not-json', data: { sourceHandle: 'bad', targetHandle: null } });
    body.data.extra = { big: 1712345678901, float: 0.1, neg: -3.5, nested: [null, true, '', { deep: [] }], unicode: 'ü🎉' };
    const flow = await createFlow(server, body);
    const read = await (await server.request(`/api/v1/flows/${flow.id}`)).json();
    t.same(read.data, body.data);
    t.equal(JSON.stringify(read.data), JSON.stringify(body.data), 'same keys in the same order');
  });

  t.test('list: everything (with examples), headers, pages of a folder', async (t) => {
    const mine = await createFlow(server, flowBody('Listed'));
    const all = await (await server.request('/api/v1/flows/')).json();
    t.ok(Array.isArray(all));
    t.ok(all.some((f: any) => f.id === mine.id));
    t.ok(all.some((f: any) => f.user_id === null && f.name === 'Echo'), 'examples are listed under auto-login');
    const withoutExamples = await (await server.request('/api/v1/flows/?remove_example_flows=true')).json();
    t.notOk(withoutExamples.some((f: any) => f.user_id === null));
    t.equal(withoutExamples.length, all.length - 2);
    const headers = await (await server.request('/api/v1/flows/?header_flows=true&remove_example_flows=true')).json();
    const header = headers.find((f: any) => f.id === mine.id);
    t.same(Object.keys(header).sort(), ['access_type', 'action_description', 'action_name', 'data', 'description', 'endpoint_name', 'folder_id', 'id', 'is_component', 'mcp_enabled', 'name', 'tags']);
    t.equal(header.data, null, 'no data for a non-component');
    t.same((await (await server.request('/api/v1/flows/?components_only=true')).json()), []);

    const page = await (await server.request('/api/v1/flows/?get_all=false&page=2&size=3')).json();
    t.same(Object.keys(page).sort(), ['items', 'page', 'pages', 'size', 'total']);
    t.match(page, { page: 2, size: 3, total: withoutExamples.length, pages: Math.ceil(withoutExamples.length / 3) });
    t.equal(page.items.length, 3);
    t.ok(page.items.every((f: any) => f.folder_id === defaultProject.id));
    const other = await (await server.request('/api/v1/projects/', { method: 'POST', json: { name: 'Elsewhere' } })).json();
    const empty = await (await server.request(`/api/v1/flows/?get_all=false&folder_id=${other.id}`)).json();
    t.match(empty, { items: [], total: 0, page: 1, size: 50, pages: 0 });
    t.equal((await server.request('/api/v1/flows/?get_all=false&size=101')).status, 422, 'size is at most 100');
  });

  t.test('patch changes given fields only; endpoint_name null clears; clashes are 400', async (t) => {
    const flow = await createFlow(server, flowBody('Patchable', { endpoint_name: 'patchable', description: 'keep me' }));
    await createFlow(server, flowBody('Taken', { endpoint_name: 'taken-ep' }));
    await new Promise((resolve) => setTimeout(resolve, 5)); // so updated_at (ms resolution) can only move forward
    const res = await server.request(`/api/v1/flows/${flow.id}`, { method: 'PATCH', json: { name: 'Patched', description: null, locked: true } });
    t.equal(res.status, 200);
    const patched = await res.json();
    t.match(patched, { name: 'Patched', description: 'keep me', locked: true, endpoint_name: 'patchable' });
    t.ok(patched.updated_at > flow.updated_at, 'updated_at moves');
    t.same(patched.data, flow.data);
    const cleared = await (await server.request(`/api/v1/flows/${flow.id}`, { method: 'PATCH', json: { endpoint_name: null } })).json();
    t.equal(cleared.endpoint_name, null);
    const nameClash = await server.request(`/api/v1/flows/${flow.id}`, { method: 'PATCH', json: { name: 'Taken' } });
    t.equal(nameClash.status, 400);
    t.same(await nameClash.json(), { detail: 'Name must be unique' });
    const epClash = await server.request(`/api/v1/flows/${flow.id}`, { method: 'PATCH', json: { endpoint_name: 'taken-ep' } });
    t.same([epClash.status, await epClash.json()], [400, { detail: 'Endpoint name must be unique' }]);
    const badFolder = await server.request(`/api/v1/flows/${flow.id}`, { method: 'PATCH', json: { folder_id: '3f0c6a52-6c1e-4d0b-9a55-0e1c2f7d8aff' } });
    t.same([badFolder.status, await badFolder.json()], [404, { detail: 'Project not found' }]);
  });

  t.test('delete one and delete many', async (t) => {
    const one = await createFlow(server, flowBody('Doomed'));
    const del = await server.request(`/api/v1/flows/${one.id}`, { method: 'DELETE' });
    t.same([del.status, await del.json()], [200, { message: 'Flow deleted successfully' }]);
    t.equal((await server.request(`/api/v1/flows/${one.id}`)).status, 404);
    const a = await createFlow(server, flowBody('Many A'));
    const b = await createFlow(server, flowBody('Many B'));
    const many = await server.request('/api/v1/flows/', { method: 'DELETE', json: [a.id, b.id.toUpperCase(), one.id] });
    t.same(await many.json(), { deleted: 2 }, 'ids read as UUIDs in any case; gone ones are skipped');
    t.equal((await server.request(`/api/v1/flows/${b.id}`)).status, 404);
  });

  t.test('bad inputs', async (t) => {
    const malformed = await server.request('/api/v1/flows/', { method: 'POST', body: '{"name": ', headers: { 'content-type': 'application/json' } });
    t.equal(malformed.status, 422);
    t.equal((await malformed.json()).detail[0].type, 'json_invalid');
    const missing = await server.request('/api/v1/flows/', { method: 'POST', json: { description: 'no name' } });
    t.equal(missing.status, 422);
    t.match((await missing.json()).detail, [{ loc: ['body', 'name'], type: 'missing' }]);
    const noEdges = await server.request('/api/v1/flows/', { method: 'POST', json: { name: 'x', data: { nodes: [] } } });
    t.equal(noEdges.status, 422, 'data needs nodes and edges');
    const badEndpoint = await server.request('/api/v1/flows/', { method: 'POST', json: { name: 'x', endpoint_name: 'has space' } });
    t.equal(badEndpoint.status, 422);
    const unknown = await server.request('/api/v1/flows/0b5e7d6c-1234-4a5b-8c9d-0123456789ab');
    t.same([unknown.status, await unknown.json()], [404, { detail: 'Flow not found' }]);
    const notUuid = await server.request('/api/v1/flows/not-a-uuid');
    t.equal(notUuid.status, 422);
    t.match((await notUuid.json()).detail, [{ loc: ['path', 'flow_id'], type: 'uuid_parsing' }]);
    const patchUnknown = await server.request('/api/v1/flows/0b5e7d6c-1234-4a5b-8c9d-0123456789ab', { method: 'PATCH', json: { name: 'x' } });
    t.equal(patchUnknown.status, 404);
    t.equal((await server.request('/api/v1/flows/', { key: null })).status, 403, 'credentials required');
  });

  t.test('examples are readable by id but not changeable', async (t) => {
    const examples = await (await server.request('/api/v1/flows/basic_examples')).json();
    const echo = examples.find((f: any) => f.name === 'Echo');
    t.equal((await server.request(`/api/v1/flows/${echo.id}`)).status, 200);
    t.equal((await server.request(`/api/v1/flows/${echo.id}`, { method: 'PATCH', json: { name: 'Mine now' } })).status, 404);
    t.equal((await server.request(`/api/v1/flows/${echo.id}`, { method: 'DELETE' })).status, 404);
  });
});

t.test('without auto-login examples stay out of users listings and new projects require API keys', async (t) => {
  const server = await startTestServer({ AUTO_LOGIN: 'false' });
  t.teardown(() => server.close());
  const examples = await (await server.request('/api/v1/flows/basic_examples', { key: null })).json();
  t.equal(examples.length, 2, 'still served as examples');
  const listed = await (await server.request('/api/v1/flows/')).json();
  t.same(listed, []);
  t.equal((await server.request(`/api/v1/flows/${examples[0].id}`)).status, 404);
  const project = await (await server.request('/api/v1/projects/', { method: 'POST', json: { name: 'Guarded' } })).json();
  t.same(project.auth_settings, { auth_type: 'apikey' });
});
