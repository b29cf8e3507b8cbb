/** Flows and projects survive a restart on the same data dir, and the unique-name indexes with them. */
import t from 'tap';
import { createFlow, flowBody, upload } from './support/flow-helpers.js';
import { memoryChatbotFlow } from './support/model-flows.js';
import { startTestServer } from './support/server.js';

t.test('restart keeps flows and projects', async (t) => {
  const first = await startTestServer();
  let second: Awaited<ReturnType<typeof startTestServer>> | undefined;
  // The second server must close before the first removes the data dir they share.
  t.teardown(async () => {
    await second?.close();
    await first.close();
  });
  const project = await (await first.request('/api/v1/projects/', { method: 'POST', json: { name: 'Durable', description: 'kept' } })).json();
  const inProject = await createFlow(first, flowBody('Durable flow', { folder_id: project.id, endpoint_name: 'durable' }));
  const [starter] = await (await upload(first, '/api/v1/flows/upload/', JSON.stringify(memoryChatbotFlow()))).json();
  const projectsBefore = await (await first.request('/api/v1/projects/')).json();
  await first.stop();

  second = await startTestServer({}, first.dataDir);

  t.same(await (await second.request('/api/v1/projects/')).json(), projectsBefore, 'same projects, same order');
  const readProject = await (await second.request(`/api/v1/projects/${project.id}`)).json();
  t.match(readProject, { name: 'Durable', description: 'kept' });
  t.same(readProject.flows, [inProject]);
  t.same(await (await second.request(`/api/v1/flows/${starter.id}`)).json(), starter);
  t.same((await (await second.request(`/api/v1/flows/${starter.id}`)).json()).data, memoryChatbotFlow().data);

  const again = await createFlow(second, flowBody('Durable flow', { endpoint_name: 'durable' }));
  t.equal(again.name, 'Durable flow (1)', 'name index survived');
  t.equal(again.endpoint_name, 'durable-1', 'endpoint name index survived');
  const projectAgain = await (await second.request('/api/v1/projects/', { method: 'POST', json: { name: 'Durable' } })).json();
  t.equal(projectAgain.name, 'Durable (1)');
  const defaults = (await (await second.request('/api/v1/projects/')).json()).filter((p: any) => p.name === 'Starter Project');
  t.equal(defaults.length, 1, 'no second default project after restart');
});
