/** /api/v1/projects over real HTTP: CRUD, flow membership, ZIP download and upload, the /folders aliases. */
import { strToU8, zipSync } from 'fflate';
import t from 'tap';
import { createFlow, flowBody, upload, zipEntries } from './support/flow-helpers.js';
import { startTestServer } from './support/server.js';

t.test('projects', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const get = async (path: string) => (await server.request(path)).json();
  const post = (path: string, json: unknown) => server.request(path, { method: 'POST', json });
  const defaultProject = (await get('/api/v1/projects/'))[0];

  t.test('every user starts with a default project, listed first', async (t) => {
    t.match(defaultProject, { name: 'Starter Project', parent_id: null });
    t.same(Object.keys(defaultProject).sort(), ['auth_settings', 'description', 'id', 'name', 'parent_id']);
    await post('/api/v1/projects/', { name: 'Aardvark' });
    const names = (await get('/api/v1/projects/')).map((p: any) => p.name);
    t.equal(names[0], 'Starter Project');
    t.ok(names.includes('Aardvark'));
    t.notOk(names.includes('Starter Projects'), 'the examples folder is not a project of yours');
  });

  t.test('create: 201, names de-duplicated, listed flows moved in', async (t) => {
    const flow = await createFlow(server, flowBody('Mover'));
    const res = await post('/api/v1/projects/', { name: 'Team', description: 'ours', flows_list: [flow.id] });
    t.equal(res.status, 201);
    const team = await res.json();
    t.match(team, { name: 'Team', description: 'ours', parent_id: null });
    t.equal((await get(`/api/v1/flows/${flow.id}`)).folder_id, team.id);
    t.equal((await (await post('/api/v1/projects/', { name: 'Team' })).json()).name, 'Team (1)');
    t.equal((await (await post('/api/v1/projects/', { name: 'Team' })).json()).name, 'Team (2)');
    t.equal((await post('/api/v1/projects/', { description: 'no name' })).status, 422);
  });

  t.test('read: all flows, or a page with filters', async (t) => {
    const project = await (await post('/api/v1/projects/', { name: 'Readable' })).json();
    for (const name of ['R alpha', 'R beta', 'R gamma']) {
      await createFlow(server, flowBody(name, { folder_id: project.id }));
      await new Promise((resolve) => setTimeout(resolve, 3)); // distinct updated_at (ms) for the page order below
    }
    await createFlow(server, flowBody('R component', { folder_id: project.id, is_component: true }));
    const full = await get(`/api/v1/projects/${project.id}`);
    t.same(Object.keys(full).sort(), ['auth_settings', 'description', 'flows', 'id', 'name', 'parent_id']);
    t.same(full.flows.map((f: any) => f.name), ['R alpha', 'R beta', 'R gamma', 'R component']);
    const paged = await get(`/api/v1/projects/${project.id}?page=1&size=2&is_flow=true`);
    const { flows: _flows, ...folderOnly } = full;
    t.same(paged.folder, folderOnly);
    t.match(paged.flows, { total: 3, page: 1, size: 2, pages: 2 });
    t.same(paged.flows.items.map((f: any) => f.name), ['R gamma', 'R beta'], 'pages are newest update first');
    const searched = await get(`/api/v1/projects/${project.id}?page=1&size=10&search=GAM`);
    t.same(searched.flows.items.map((f: any) => f.name), ['R gamma']);
    const components = await get(`/api/v1/projects/${project.id}?page=1&size=10&is_component=true`);
    t.same(components.flows.items.map((f: any) => f.name), ['R component']);
    const missing = await server.request('/api/v1/projects/0b5e7d6c-1234-4a5b-8c9d-0123456789ab');
    t.same([missing.status, await missing.json()], [404, { detail: 'Project not found' }]);
  });

  t.test('patch: rename, or reassign flows with dropped ones going home', async (t) => {
    const project = await (await post('/api/v1/projects/', { name: 'Patch me' })).json();
    const keep = await createFlow(server, flowBody('Keep', { folder_id: project.id }));
    const drop = await createFlow(server, flowBody('Drop', { folder_id: project.id }));
    const join = await createFlow(server, flowBody('Join'));
    const renamed = await (await server.request(`/api/v1/projects/${project.id}`, { method: 'PATCH', json: { name: 'Patched' } })).json();
    t.equal(renamed.name, 'Patched');
    t.equal((await get(`/api/v1/flows/${drop.id}`)).folder_id, project.id, 'a rename moves nothing');
    const res = await server.request(`/api/v1/projects/${project.id}`, { method: 'PATCH', json: { flows: [keep.id, join.id], components: [] } });
    t.equal(res.status, 200);
    t.same((await get(`/api/v1/projects/${project.id}`)).flows.map((f: any) => f.name).sort(), ['Join', 'Keep']);
    t.equal((await get(`/api/v1/flows/${drop.id}`)).folder_id, defaultProject.id);
    const described = await server.request(`/api/v1/projects/${project.id}`, { method: 'PATCH', json: { description: 'now described' } });
    t.equal((await described.json()).description, 'now described');
    t.equal((await get(`/api/v1/projects/${project.id}`)).flows.length, 2, 'no flows/components given: membership kept');
    const clash = await server.request(`/api/v1/projects/${project.id}`, { method: 'PATCH', json: { name: 'Starter Project' } });
    t.same([clash.status, await clash.json()], [400, { detail: 'Project name must be unique' }]);
  });

  t.test('delete: 204 and its flows go too', async (t) => {
    const project = await (await post('/api/v1/projects/', { name: 'Doomed project' })).json();
    const inside = await createFlow(server, flowBody('Inside', { folder_id: project.id }));
    const outside = await createFlow(server, flowBody('Outside'));
    const res = await server.request(`/api/v1/projects/${project.id}`, { method: 'DELETE' });
    t.equal(res.status, 204);
    t.equal(await res.text(), '');
    t.equal((await server.request(`/api/v1/projects/${project.id}`)).status, 404);
    t.equal((await server.request(`/api/v1/flows/${inside.id}`)).status, 404);
    t.equal((await server.request(`/api/v1/flows/${outside.id}`)).status, 200);
  });

  t.test('download a project as a ZIP, then upload it back as a new project', async (t) => {
    const project = await (await post('/api/v1/projects/', { name: 'Zipped' })).json();
    const a = await createFlow(server, flowBody('Zipped A', { folder_id: project.id }));
    const b = await createFlow(server, flowBody('Zipped B', { folder_id: project.id }));
    const res = await server.request(`/api/v1/projects/download/${project.id}`);
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'application/zip');
    t.match(res.headers.get('content-disposition'), /^attachment; filename=\d{8}_\d{6}_Zipped_flows\.zip$/);
    const bytes = new Uint8Array(await res.clone().arrayBuffer());
    const entries = await zipEntries(res);
    t.same(Object.keys(entries).sort(), ['Zipped A.json', 'Zipped B.json']);
    t.same(entries['Zipped A.json'].data, a.data);
    t.equal(entries['Zipped B.json'].id, b.id);

    const back = await upload(server, '/api/v1/projects/upload/', bytes, 'Zipped.zip');
    t.equal(back.status, 201);
    const flows = await back.json();
    t.same(flows.map((f: any) => f.name).sort(), ['Zipped A (1)', 'Zipped B (1)']);
    const copy = (await get('/api/v1/projects/')).find((p: any) => p.name === 'Zipped (1)');
    t.ok(copy, 'a new project named after the file');
    t.ok(flows.every((f: any) => f.folder_id === copy.id));

    const fancy = await (await post('/api/v1/projects/', { name: 'Équipe "Ü"' })).json();
    await createFlow(server, flowBody('Fancy flow', { folder_id: fancy.id }));
    const fancyZip = await server.request(`/api/v1/projects/download/${fancy.id}`);
    t.equal(fancyZip.status, 200);
    t.match(fancyZip.headers.get('content-disposition'), /filename\*=UTF-8''\d{8}_\d{6}_%C3%89quipe%20%22%C3%9C%22_flows\.zip$/, 'non-ASCII names go in filename*');

    const empty = await (await post('/api/v1/projects/', { name: 'Empty' })).json();
    const none = await server.request(`/api/v1/projects/download/${empty.id}`);
    t.equal(none.status, 404);
  });

  t.test('upload a project file', async (t) => {
    const file = { folder_name: 'Imported', folder_description: 'from a file', flows: [flowBody('Imp 1'), flowBody('Imp 2')] };
    const res = await upload(server, '/api/v1/projects/upload/', JSON.stringify(file));
    t.equal(res.status, 201);
    const flows = await res.json();
    t.same(flows.map((f: any) => f.name), ['Imp 1', 'Imp 2']);
    const project = await get(`/api/v1/projects/${flows[0].folder_id}`);
    t.match(project, { name: 'Imported', description: 'from a file' });
    t.same(project.flows.map((f: any) => f.id), flows.map((f: any) => f.id));
    t.equal((await upload(server, '/api/v1/projects/upload/', JSON.stringify({ flows: [] }))).status, 400, 'folder_name is required');
    t.equal((await upload(server, '/api/v1/projects/upload/', zipSync({ 'notes.txt': strToU8('hi') }), 'x.zip')).status, 400, 'a ZIP without flows');
  });

  t.test('/api/v1/folders answers like /api/v1/projects', async (t) => {
    const viaFolders = await (await server.request('/api/v1/folders/')).json();
    t.same(viaFolders, await get('/api/v1/projects/'));
    const created = await server.request('/api/v1/folders/', { method: 'POST', json: { name: 'Folder style' } });
    t.equal(created.status, 201);
    const folder = await created.json();
    t.equal((await get(`/api/v1/projects/${folder.id}`)).name, 'Folder style');
  });
});
