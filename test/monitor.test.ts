import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

t.test('monitor messages: filters, order, paging, sessions, edits, deletes', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow());
  const flow = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id);
  for (const [text, session] of [['a1', 'A'], ['b1', 'B'], ['a2', 'A']]) await flow.run(text, { session_id: session });

  const get = async (query: string) => {
    const res = await server.request(`/api/v1/monitor/messages${query}`);
    t.equal(res.status, 200, query);
    return res.json();
  };
  const all = await get(`?flow_id=${created.id}`);
  t.same(all.map((m: any) => m.text), ['a1', 'a1', 'b1', 'b1', 'a2', 'a2'], 'oldest first by default');
  t.equal(all[0].files, '[]', "files is a JSON string, as Langflow's MessageResponse has it");
  t.match(all[0].timestamp, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);

  t.same((await get(`?session_id=A&sender=User`)).map((m: any) => m.text), ['a1', 'a2']);
  t.same((await get(`?session_id=A&sender_name=AI&order=DESC`)).map((m: any) => m.text), ['a2', 'a1']);
  t.same((await get(`?flow_id=${created.id}&limit=2&offset=1`)).map((m: any) => m.text), ['a1', 'b1'], 'offset skips from the start of the ordered result');
  t.same((await (await server.request(`/api/v1/monitor/messages/sessions?flow_id=${created.id}`)).json()).sort(), ['A', 'B']);

  const bad = await server.request('/api/v1/monitor/messages?order=sideways');
  t.equal(bad.status, 422);
  const badLimit = await server.request('/api/v1/monitor/messages?limit=-1');
  t.equal(badLimit.status, 422);

  const edited = await server.request(`/api/v1/monitor/messages/${all[0].id}`, { method: 'PUT', json: { text: 'a1 (edited)' } });
  t.equal(edited.status, 200);
  const editedBody = await edited.json();
  t.equal(editedBody.text, 'a1 (edited)');
  t.equal(editedBody.edit, true, 'changing the text marks the message edited');
  t.same(editedBody.files, [], 'the PUT reply has files as a list');
  const missing = await server.request('/api/v1/monitor/messages/nope', { method: 'PUT', json: { text: 'x' } });
  t.equal(missing.status, 404);
  t.same(await missing.json(), { detail: 'Message not found' });

  const renamed = await server.request('/api/v1/monitor/messages/session/B?new_session_id=C', { method: 'PATCH' });
  t.equal(renamed.status, 200);
  t.same((await renamed.json()).map((m: any) => m.session_id), ['C', 'C']);
  const renameMissing = await server.request('/api/v1/monitor/messages/session/nope?new_session_id=x', { method: 'PATCH' });
  t.equal(renameMissing.status, 404);

  const deleted = await server.request('/api/v1/monitor/messages', { method: 'DELETE', json: [all[1].id] });
  t.equal(deleted.status, 204);
  const dropSession = await server.request('/api/v1/monitor/messages/session/C', { method: 'DELETE' });
  t.equal(dropSession.status, 204);
  t.same((await get(`?flow_id=${created.id}`)).map((m: any) => m.text), ['a1 (edited)', 'a2', 'a2']);

  await flow.run('a3', { session_id: 'A' });
  t.same((await get('?session_id=A')).map((m: any) => m.text), ['a1 (edited)', 'a2', 'a2', 'a3', 'a3'], 'the session actor saw the edits (its cache was reset)');
});

t.test('monitor messages are scoped to the caller; deleting a flow deletes its messages', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow());
  await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run('mine', { session_id: 'S' });
  const other = await createUserWithKey(server, 'other');
  const theirs = await (await server.request('/api/v1/monitor/messages?session_id=S', { key: other.apiKey })).json();
  t.same(theirs, [], "another user's messages are not visible");
  const noKey = await server.request('/api/v1/monitor/messages/sessions', { key: null });
  t.equal(noKey.status, 403);

  await server.request(`/api/v1/flows/${created.id}`, { method: 'DELETE' });
  t.equal((await server.services.store.messages.scan(created.id)).length, 0, "the flow's messages went with it");
});
