/** Flows and projects belong to their owner: another user sees "not found", never the data. */
import t from 'tap';
import { createFlow, flowBody, secondUser } from './support/flow-helpers.js';
import { startTestServer } from './support/server.js';

t.test('owners', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const other = await secondUser(server);
  const mine = await createFlow(server, flowBody('Mine', { endpoint_name: 'shared-ep' }));
  const project = await (await server.request('/api/v1/projects/', { method: 'POST', json: { name: 'Private project' } })).json();

  t.test("another user's flow is 404 for read, patch and delete", async (t) => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await server.request(`/api/v1/flows/${mine.id}`, { method, key: other.key, json: method === 'PATCH' ? { name: 'Stolen' } : undefined });
      t.same([res.status, await res.json()], [404, { detail: 'Flow not found' }], method);
    }
    t.equal((await (await server.request(`/api/v1/flows/${mine.id}`)).json()).name, 'Mine', 'untouched');
  });

  t.test('bulk delete and download skip flows of others', async (t) => {
    const deleted = await server.request('/api/v1/flows/', { method: 'DELETE', key: other.key, json: [mine.id] });
    t.same(await deleted.json(), { deleted: 0 });
    const download = await server.request('/api/v1/flows/download/', { method: 'POST', key: other.key, json: [mine.id] });
    t.equal(download.status, 404);
  });

  t.test('names and endpoint names are unique per user only', async (t) => {
    const theirs = await createFlow(server, flowBody('Mine', { endpoint_name: 'shared-ep' }), other.key);
    t.equal(theirs.name, 'Mine');
    t.equal(theirs.endpoint_name, 'shared-ep');
    t.equal(theirs.user_id, other.id);
    const listed = await (await server.request('/api/v1/flows/?remove_example_flows=true', { key: other.key })).json();
    t.same(listed.map((f: any) => f.id), [theirs.id], 'lists only their own flows');
  });

  t.test("another user's project as folder_id or parent_id is refused with 404, and nothing is stored", async (t) => {
    const refused = [
      ['POST', '/api/v1/flows/', { ...flowBody('Sneaky'), folder_id: project.id }],
      ['PATCH', `/api/v1/flows/${(await createFlow(server, flowBody('Theirs'), other.key)).id}`, { folder_id: project.id }],
      ['POST', '/api/v1/projects/', { name: 'Child', parent_id: project.id }],
      ['PATCH', `/api/v1/projects/${(await (await server.request('/api/v1/projects/', { method: 'POST', key: other.key, json: { name: 'Theirs' } })).json()).id}`, { parent_id: project.id }],
    ] as const;
    for (const [method, path, json] of refused) {
      const res = await server.request(path, { method, key: other.key, json });
      t.same([res.status, await res.json()], [404, { detail: 'Project not found' }], `${method} ${path}`);
    }
    const theirFlows = await (await server.request('/api/v1/flows/?remove_example_flows=true', { key: other.key })).json();
    t.notOk(theirFlows.some((f: any) => f.name === 'Sneaky'), 'the refused flow was not created');
    const theirProjects = await (await server.request('/api/v1/projects/', { key: other.key })).json();
    t.notOk(theirProjects.some((p: any) => p.name === 'Child' || p.parent_id === project.id), 'no project points at the foreign parent');
    const mine = await (await server.request(`/api/v1/projects/${project.id}`)).json();
    t.same(mine.flows, [], "nothing moved into the owner's project");
  });

  t.test('a folder_id that does not exist here (an export from elsewhere) lands the flow in the default project', async (t) => {
    const created = await createFlow(server, flowBody('Imported', { folder_id: '00000000-0000-4000-8000-000000000000' }), other.key);
    const theirProjects = await (await server.request('/api/v1/projects/', { key: other.key })).json();
    t.equal(created.folder_id, theirProjects.find((p: any) => p.name === 'Starter Project').id);
  });

  t.test("deleting another user's API key is a 404, and the key keeps working", async (t) => {
    const key = await (await server.request('/api/v1/api_key/', { method: 'POST', json: { name: 'mine' } })).json();
    const res = await server.request(`/api/v1/api_key/${key.id}`, { method: 'DELETE', key: other.key });
    t.same([res.status, await res.json()], [404, { detail: 'API Key not found' }]);
    t.equal((await server.request('/api/v1/users/whoami', { key: key.api_key })).status, 200);
  });

  t.test("another user's project is 404 everywhere", async (t) => {
    for (const [method, path] of [
      ['GET', `/api/v1/projects/${project.id}`],
      ['PATCH', `/api/v1/projects/${project.id}`],
      ['DELETE', `/api/v1/projects/${project.id}`],
      ['GET', `/api/v1/projects/download/${project.id}`],
    ] as const) {
      const res = await server.request(path, { method, key: other.key, json: method === 'PATCH' ? { name: 'Taken over' } : undefined });
      t.same([res.status, await res.json()], [404, { detail: 'Project not found' }], `${method} ${path}`);
    }
  });

  t.test('moving flows into a project only moves your own', async (t) => {
    const created = await server.request('/api/v1/projects/', { method: 'POST', key: other.key, json: { name: 'Grabby', flows_list: [mine.id] } });
    t.equal(created.status, 201);
    const grabby = await created.json();
    const contents = await (await server.request(`/api/v1/projects/${grabby.id}`, { key: other.key })).json();
    t.same(contents.flows, []);
    t.not((await (await server.request(`/api/v1/flows/${mine.id}`)).json()).folder_id, grabby.id);
  });
});
