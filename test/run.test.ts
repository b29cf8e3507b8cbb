import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

function client(server: TestServer) {
  return new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
}

t.test('a flow runs through /api/v1/run with the Langflow client', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow('Echo', { endpoint_name: 'echo' }));

  const response = await client(server).flow(created.id).run('hello there');
  t.equal(response.chatOutputText(), 'hello there');
  t.equal(response.sessionId, created.id, 'the session defaults to the flow id');
  const result = response.outputs[0].outputs[0];
  t.equal(result.component_id, 'ChatOutput-out01');
  t.equal(result.results.message.text, 'hello there');
  t.equal(result.results.message.sender, 'Machine');
  t.equal(result.results.message.sender_name, 'AI');
  t.match(result.results.message.timestamp, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/, "Langflow's timestamp format");
  t.same(result.outputs.message, { message: 'hello there', type: 'text' });
  t.same(response.outputs[0].inputs, { input_value: 'hello there' });

  const byName = await client(server).flow('echo').run('by endpoint name', { session_id: 'chat-1' });
  t.equal(byName.chatOutputText(), 'by endpoint name');
  t.equal(byName.sessionId, 'chat-1');
});

t.test('50 concurrent runs each answer their own input', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow());
  const flowClient = client(server).flow(created.id);
  const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => flowClient.run(`question ${i}`, { session_id: `s${i % 5}` })));
  replies.forEach((reply, i) => t.equal(reply.chatOutputText(), `question ${i}`));
  const stored = await server.services.store.messages.session(created.id, 's0', {});
  t.equal(stored.length, 20, 'each run stored its user and AI messages');
});

t.test('streaming: add_message for the user and the answer, then end with the result', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow());
  const events: { event: string; data: any }[] = [];
  for await (const event of await client(server).flow(created.id).stream('stream me')) events.push(event as never);
  t.same(events.map((e) => e.event), ['add_message', 'add_message', 'end']);
  t.equal(events[0].data.sender, 'User');
  t.equal(events[0].data.text, 'stream me');
  t.type(events[0].data.id, 'string', 'stored messages carry their id');
  t.equal(events[1].data.sender, 'Machine');
  t.equal(events[2].data.result.outputs[0].outputs[0].results.message.text, 'stream me');

  const raw = await server.request(`/api/v1/run/${created.id}?stream=true`, { method: 'POST', json: { input_value: 'x' } });
  t.equal(raw.headers.get('content-type'), 'text/event-stream');
  const text = await raw.text();
  t.match(text, /^\{"event":"add_message","data":\{/, 'frames are bare JSON objects (not SSE)');
  t.ok(text.split('\n\n').filter(Boolean).every((f) => JSON.parse(f).event), 'each frame is one JSON object followed by a blank line');
});

t.test('tweaks by node id, by display name, and for every node', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow());
  const run = async (tweaks: Record<string, unknown>) => {
    const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi', tweaks } });
    t.equal(res.status, 200);
    return (await res.json()).outputs[0].outputs[0].results.message;
  };
  t.equal((await run({ 'ChatOutput-out01': { sender_name: 'ById' } })).sender_name, 'ById');
  t.equal((await run({ 'Chat Output': { sender_name: 'ByName' } })).sender_name, 'ByName');
  t.equal((await run({ should_store_message: false })).id, null, 'a non-object tweak applies to that field on every node');

  const twice = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'a', tweaks: { 'ChatInput-in001': { input_value: 'b' } } } });
  t.equal(twice.status, 400, 'an input value in the body and in a chat input tweak is refused');
});

t.test('variables from request headers; a missing one fails the run naming it', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = flow('Greeter', [node('ChatInput-in001', 'ChatInput', { input_value: { value: 'GREETING', load_from_db: true } }), node('ChatOutput-out01', 'ChatOutput')], [edge('ChatInput-in001', 'message', 'ChatOutput-out01', 'input_value')]);
  const created = await createFlow(server, body);

  for (const header of ['x-flowsvc-global-var-greeting', 'X-LANGFLOW-GLOBAL-VAR-GREETING']) {
    const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: {}, headers: { [header]: 'hola' } });
    t.equal(res.status, 200, header);
    t.equal((await res.json()).outputs[0].outputs[0].results.message.text, 'hola', `${header} resolves the variable`);
  }
  const missing = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: {} });
  t.equal(missing.status, 400);
  t.match((await missing.json()).detail, /GREETING/, 'the error names the variable');
});

t.test('flows that cannot run: unknown flow, unknown component, dangling edge, cycle', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const unknownFlow = await server.request('/api/v1/run/no-such-flow', { method: 'POST', json: {} });
  t.equal(unknownFlow.status, 404);
  t.same(await unknownFlow.json(), { detail: 'Flow identifier no-such-flow not found' });

  const bad = async (body: unknown, pattern: RegExp, what: string) => {
    const created = await createFlow(server, body as Record<string, unknown>);
    const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'x' } });
    t.equal(res.status, 400, what);
    t.match((await res.json()).detail, pattern, what);
  };
  await bad(flow('Unknown', [node('Mystery-1', 'MysteryComponent')], []), /Mystery-1.*unknown component type "MysteryComponent"/, 'unknown component');
  await bad(flow('Dangling', [node('ChatInput-in001', 'ChatInput')], [edge('ChatInput-in001', 'message', 'ChatOutput-gone', 'input_value')]), /missing node "ChatOutput-gone"/, 'dangling edge');
  await bad(flow('BadHandle', [node('ChatInput-in001', 'ChatInput'), node('ChatOutput-out01', 'ChatOutput')], [edge('ChatInput-in001', 'nope', 'ChatOutput-out01', 'input_value')]), /ChatInput-in001.*no output "nope"/, 'bad output handle');
  await bad(
    flow('Cycle', [node('TextOutput-a', 'TextOutput'), node('TextOutput-b', 'TextOutput')], [edge('TextOutput-a', 'text', 'TextOutput-b', 'input_value'), edge('TextOutput-b', 'text', 'TextOutput-a', 'input_value')]),
    /cycle with no exit: TextOutput-(a|b) -> TextOutput-(a|b) -> TextOutput-(a|b)\. A cycle runs only through a Loop component/,
    'cycle names its vertices',
  );
});

t.test('bad run requests: wrong types are 422, missing key 403', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow());
  const wrong = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 5 } });
  t.equal(wrong.status, 422);
  t.same((await wrong.json()).detail[0].loc, ['body', 'input_value']);
  const malformed = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', body: '{"input_value":', headers: { 'content-type': 'application/json' } });
  t.equal(malformed.status, 422);
  const noKey = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: {}, key: null });
  t.equal(noKey.status, 403);
  const empty = await server.request(`/api/v1/run/${created.id}`, { method: 'POST' });
  t.equal(empty.status, 200, 'an empty body is a run with defaults');
});

t.test('deprecated /process and /predict answer as run, with a Deprecation header', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow());
  for (const path of ['process', 'predict']) {
    const res = await server.request(`/api/v1/${path}/${created.id}`, { method: 'POST', json: { input_value: path } });
    t.equal(res.status, 200);
    t.equal(res.headers.get('deprecation'), 'true');
    t.equal((await res.json()).outputs[0].outputs[0].results.message.text, path);
  }
});

t.test('run/advanced: one result per input, outputs chosen by id', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow());
  const res = await server.request(`/api/v1/run/advanced/${created.id}`, {
    method: 'POST',
    json: { inputs: [{ input_value: 'one', type: 'chat' }, { input_value: 'two', type: 'chat' }], outputs: ['ChatOutput-out01'], session_id: 'adv' },
  });
  t.equal(res.status, 200);
  const body = await res.json();
  t.equal(body.session_id, 'adv');
  t.same(body.outputs.map((o: any) => o.outputs[0].results.message.text), ['one', 'two']);
  const extra = await server.request(`/api/v1/run/advanced/${created.id}`, { method: 'POST', json: { inputs: [{ input_value: 'x', bogus: 1 }] } });
  t.equal(extra.status, 422, 'unknown keys in an input are refused');
});

t.test('a session continues across a restart, in order', async (t) => {
  const first = await startTestServer();
  const created = await createFlow(first, echoFlow());
  await client(first).flow(created.id).run('turn one', { session_id: 'conv' });
  await first.stop();
  const second = await startTestServer({}, first.dataDir);
  t.teardown(async () => {
    await second.close();
    (await import('node:fs')).rmSync(first.dataDir, { recursive: true, force: true });
  });
  await client(second).flow(created.id).run('turn two', { session_id: 'conv' });
  const history = await second.services.store.messages.session(created.id, 'conv', {});
  t.same(history.map((m) => `${m.sender}:${m.text}`), ['User:turn one', 'Machine:turn one', 'User:turn two', 'Machine:turn two']);
});

t.test('a flow changed, renamed or deleted after it ran runs as it is now', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = (senderName: string, endpoint: string) =>
    flow('Changing', [node('ChatInput-in001', 'ChatInput'), node('ChatOutput-out01', 'ChatOutput', { sender_name: senderName })], [edge('ChatInput-in001', 'message', 'ChatOutput-out01', 'input_value')], { endpoint_name: endpoint });
  const created = await createFlow(server, body('First', 'before'));
  const senderOf = async (idOrName: string) => {
    const res = await server.request(`/api/v1/run/${idOrName}`, { method: 'POST', json: { input_value: 'hi' } });
    return res.status === 200 ? ((await res.json()) as any).outputs[0].outputs[0].results.message.sender_name : res.status;
  };
  t.equal(await senderOf(created.id), 'First');
  t.equal(await senderOf('before'), 'First');

  const patched = await server.request(`/api/v1/flows/${created.id}`, { method: 'PATCH', json: body('Second', 'after') });
  t.equal(patched.status, 200);
  t.equal(await senderOf(created.id), 'Second', 'the new data runs');
  t.equal(await senderOf('after'), 'Second', 'by the new endpoint name');
  t.equal(await senderOf('before'), 404, 'the old endpoint name is gone');

  t.equal((await server.request(`/api/v1/flows/${created.id}`, { method: 'DELETE' })).status, 200);
  t.equal(await senderOf(created.id), 404, 'a deleted flow no longer runs');
});
