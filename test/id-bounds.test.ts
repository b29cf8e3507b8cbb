/**
 * Every id and name that becomes a store key is bounded by the schema (protocol/limits.ts): past its bound a request
 * answers 422 naming the field, before anything reaches the store; at its bound it works. A session id of 2,000
 * characters once restarted the session actor forever (its history read threw on LMDB's key limit at every
 * restart), froze the event loop and killed the process.
 */
import t from 'tap';
import { ID_MAX_CHARS, NAME_MAX_CHARS } from '../protocol/limits.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

const LONG_ID = 'x'.repeat(10 * 1024);
const LONG_NAME = 'n'.repeat(10 * 1024);

t.test('oversized ids and names answer 422 naming the field', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const flowId = (await createFlow(server, echoFlow('Bounds')))['id'];
  const project = await (await server.request('/api/v1/projects/', { method: 'POST', json: { name: 'Bounded project' } })).json();
  const cases: { name: string; path: string; method?: string; json?: unknown; form?: string; loc: (string | number)[] }[] = [
    { name: 'v1 run session_id', path: `/api/v1/run/${flowId}`, method: 'POST', json: { input_value: 'hi', session_id: LONG_ID }, loc: ['body', 'session_id'] },
    { name: 'run/advanced session_id', path: `/api/v1/run/advanced/${flowId}`, method: 'POST', json: { session_id: LONG_ID }, loc: ['body', 'session_id'] },
    { name: 'v2 input session_id', path: '/api/v2/workflows', method: 'POST', json: { flow_id: flowId, background: true, inputs: { 'ChatInput-in.session_id': LONG_ID } }, loc: ['body', 'inputs', 'ChatInput-in.session_id'] },
    { name: 'v2 flow_id', path: '/api/v2/workflows', method: 'POST', json: { flow_id: LONG_ID }, loc: ['body', 'flow_id'] },
    { name: 'v2 job_id', path: `/api/v2/workflows?job_id=${LONG_ID}`, loc: ['query', 'job_id'] },
    { name: 'responses model', path: '/api/v1/responses', method: 'POST', json: { model: LONG_ID, input: 'hi' }, loc: ['body', 'model'] },
    { name: 'responses previous_response_id', path: '/api/v1/responses', method: 'POST', json: { model: flowId, input: 'hi', previous_response_id: LONG_ID }, loc: ['body', 'previous_response_id'] },
    { name: 'flow name', path: '/api/v1/flows/', method: 'POST', json: { name: LONG_NAME }, loc: ['body', 'name'] },
    { name: 'flow endpoint_name', path: '/api/v1/flows/', method: 'POST', json: { name: 'ok', endpoint_name: LONG_NAME }, loc: ['body', 'endpoint_name'] },
    { name: 'flow rename', path: `/api/v1/flows/${flowId}`, method: 'PATCH', json: { name: LONG_NAME }, loc: ['body', 'name'] },
    { name: 'project name', path: '/api/v1/projects/', method: 'POST', json: { name: LONG_NAME }, loc: ['body', 'name'] },
    { name: 'project rename', path: `/api/v1/projects/${project.id}`, method: 'PATCH', json: { name: LONG_NAME }, loc: ['body', 'name'] },
    { name: 'user name', path: '/api/v1/users/', method: 'POST', json: { username: LONG_NAME, password: 'pw' }, loc: ['body', 'username'] },
    { name: 'login', path: '/api/v1/login', method: 'POST', form: `username=${LONG_NAME}&password=pw`, loc: ['body', 'username'] },
    { name: 'variable name', path: '/api/v1/variables/', method: 'POST', json: { name: LONG_NAME, value: 'v', type: 'Generic' }, loc: ['body', 'name'] },
    { name: 'api key name', path: '/api/v1/api_key/', method: 'POST', json: { name: LONG_NAME }, loc: ['body', 'name'] },
    { name: 'messages by session', path: `/api/v1/monitor/messages?session_id=${LONG_ID}`, loc: ['query', 'session_id'] },
    { name: 'session rename', path: `/api/v1/monitor/messages/session/old?new_session_id=${LONG_ID}`, method: 'PATCH', loc: ['query', 'new_session_id'] },
    { name: 'message session_id update', path: `/api/v1/monitor/messages/${'0'.repeat(8)}`, method: 'PUT', json: { session_id: LONG_ID }, loc: ['body', 'session_id'] },
    { name: 'run path flow id', path: `/api/v1/run/${'f'.repeat(2000)}`, method: 'POST', json: { input_value: 'hi' }, loc: ['path', 'flow_id_or_name'] },
  ];
  for (const c of cases) {
    const init: RequestInit & { json?: unknown } = { method: c.method ?? 'GET' };
    if (c.json !== undefined) init.json = c.json;
    if (c.form !== undefined) init.body = c.form, (init.headers = { 'content-type': 'application/x-www-form-urlencoded' });
    const res = await server.request(c.path, init);
    t.equal(res.status, 422, `${c.name}: 422`);
    const body = (await res.json()) as { detail?: { loc: unknown[] }[]; error?: { param: string | null } };
    // The responses routes answer in OpenAI's shape: the field is the error's `param`.
    const named = body.error ? [['body', ...(body.error.param ?? '').split('.')]] : (body.detail ?? []).map((d) => d.loc);
    t.ok(named.some((loc) => JSON.stringify(loc) === JSON.stringify(c.loc)), `${c.name}: names ${c.loc.join('.')} (got ${JSON.stringify(named)})`);
  }
  t.equal((await server.request('/health')).status, 200, 'the service is alive');
});

t.test('ids and names at their bounds work, and are stored', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const name = 'é'.repeat(NAME_MAX_CHARS);
  const flow = await createFlow(server, echoFlow(name));
  t.equal(flow['name'], name, 'a flow name at the bound (two-byte characters) is stored');
  const session = '\u{1F600}'.repeat(ID_MAX_CHARS / 2) + 's'.repeat(ID_MAX_CHARS - (ID_MAX_CHARS / 2) * 2);
  t.ok(session.length <= ID_MAX_CHARS, 'four-byte characters count as two UTF-16 units');
  const run = await server.request(`/api/v1/run/${flow['id']}`, { method: 'POST', json: { input_value: 'at the bound', session_id: session } });
  t.equal(run.status, 200, 'a run with a session id at the bound answers');
  t.equal(((await run.json()) as { session_id: string }).session_id, session);
  const listed = await server.request(`/api/v1/monitor/messages?session_id=${encodeURIComponent(session)}`);
  t.equal(((await listed.json()) as unknown[]).length, 2, 'both messages of that session are stored');
});
