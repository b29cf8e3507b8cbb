/** v2 workflows, synchronous runs: the reply shape, inputs, globals, versions, failures and every refusal. */
import t from 'tap';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';
import { postWorkflow } from './support/workflows.js';

const calculatorFlow = (name: string, expression = '2+2') => flow(name, [node('Calc-1', 'CalculatorComponent', { expression }, 'Calculator')], []);

t.test('v2 sync runs', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const echo = await createFlow(server, echoFlow('Echo v2', { endpoint_name: 'echo-v2' }));

  t.test('the reply has the 2.2 shape with one output per terminal component', async (t) => {
    const res = await postWorkflow(server, { flow_id: echo.id, inputs: { 'ChatInput-in001.input_value': 'héllo 👋' } });
    t.equal(res.status, 200);
    const body = await res.json();
    t.match(body, { flow_id: echo.id, object: 'response', status: 'completed', errors: [], inputs: { 'ChatInput-in001.input_value': 'héllo 👋' }, globals: {} });
    t.match(body.job_id, /^[0-9a-f-]{36}$/);
    t.ok(!Number.isNaN(Date.parse(body.created_timestamp)), 'ISO 8601 timestamp');
    t.equal(body.created_at, Math.floor(Date.parse(body.created_timestamp) / 1000));
    t.same(Object.keys(body.outputs), ['ChatOutput-out01']);
    t.match(body.outputs['ChatOutput-out01'], { type: 'message', status: 'completed', content: 'héllo 👋', component_id: 'ChatOutput-out01', metadata: { component_type: 'ChatOutput' } });
    t.match(body.metadata.flow_version, /^[0-9a-f]{16}$/);
  });

  t.test('the flow is found by endpoint name; data outputs carry their JSON', async (t) => {
    const byName = await (await postWorkflow(server, { flow_id: 'echo-v2', inputs: { 'ChatInput-in001.input_value': 'by name' } })).json();
    t.equal(byName.outputs['ChatOutput-out01'].content, 'by name');
    const calc = await createFlow(server, calculatorFlow('Calc v2'));
    const body = await (await postWorkflow(server, { flow_id: calc.id, inputs: { 'Calc-1.expression': '6*7' } })).json();
    t.match(body.outputs['Calc-1'], { type: 'data', status: 'completed', content: { result: '42' } });
  });

  t.test('a whole component under its bare id, and a display name, work like Langflow tweaks', async (t) => {
    const calc = await createFlow(server, calculatorFlow('Calc bare'));
    const bare = await (await postWorkflow(server, { flow_id: calc.id, inputs: { 'Calc-1': { expression: '1+1' } } })).json();
    t.same(bare.outputs['Calc-1'].content, { result: '2' });
    const named = await (await postWorkflow(server, { flow_id: calc.id, inputs: { 'Calculator.expression': '3*3' } })).json();
    t.same(named.outputs['Calc-1'].content, { result: '9' });
  });

  t.test('session_id in inputs is the run session', async (t) => {
    await postWorkflow(server, { flow_id: echo.id, inputs: { 'ChatInput-in001.input_value': 'in session', 'ChatInput-in001.session_id': 'v2-session' } });
    const messages = await (await server.request(`/api/v1/monitor/messages?flow_id=${echo.id}&session_id=v2-session`)).json();
    t.same(messages.map((m: any) => m.text), ['in session', 'in session']);
  });

  t.test('a component failure is a 200 with status failed naming the component', async (t) => {
    const calc = await createFlow(server, calculatorFlow('Calc bad', '2+'));
    const res = await postWorkflow(server, { flow_id: calc.id });
    t.equal(res.status, 200);
    const body = await res.json();
    t.equal(body.status, 'failed');
    t.same(body.outputs, {});
    t.equal(body.errors.length, 1);
    t.match(body.errors[0], { code: 'EXECUTION_ERROR', details: { component_id: 'Calc-1', component_type: 'CalculatorComponent', display_name: 'Calculator', flow_id: calc.id } });
    t.match(body.errors[0].error, /Calculator \(Calc-1\)/);
  });

  t.test('globals reach components as variables; the body wins over a deprecated header', async (t) => {
    const withVariable = await createFlow(server, flow('Var flow', [node('Calc-1', 'CalculatorComponent', { expression: { value: 'EXPR', load_from_db: true } }, 'Calculator')], []));
    const body = await (await postWorkflow(server, { flow_id: withVariable.id, globals: { EXPR: '10-3' } })).json();
    t.same(body.outputs['Calc-1'].content, { result: '7' });
    t.same(body.globals, { EXPR: '10-3' }, 'globals are echoed');
    const header = await (await postWorkflow(server, { flow_id: withVariable.id }, { headers: { 'X-FLOWSVC-GLOBAL-VAR-EXPR': '5*5' } })).json();
    t.same(header.outputs['Calc-1'].content, { result: '25' }, 'header globals still work');
    const both = await (await postWorkflow(server, { flow_id: withVariable.id, globals: { EXPR: '1+0' } }, { headers: { 'X-FLOWSVC-GLOBAL-VAR-EXPR': '5*5' } })).json();
    t.same(both.outputs['Calc-1'].content, { result: '1' }, 'the body wins');
    const missing = await (await postWorkflow(server, { flow_id: withVariable.id })).json();
    t.equal(missing.status, 'failed');
    t.equal(missing.errors[0].code, 'MISSING_VARIABLE');
    t.match(missing.errors[0].error, /EXPR/);
  });

  t.test('flow_version pins a stored version; an unknown one is 404', async (t) => {
    const calc = await createFlow(server, calculatorFlow('Calc versions', '1+1'));
    const first = await (await postWorkflow(server, { flow_id: calc.id })).json();
    const v1 = first.metadata.flow_version;
    const patched = await server.request(`/api/v1/flows/${calc.id}`, { method: 'PATCH', json: { data: calculatorFlow('x', '100+1').data } });
    t.equal(patched.status, 200);
    const current = await (await postWorkflow(server, { flow_id: calc.id })).json();
    t.same(current.outputs['Calc-1'].content, { result: '101' });
    t.not(current.metadata.flow_version, v1);
    const pinned = await (await postWorkflow(server, { flow_id: calc.id, flow_version: v1 })).json();
    t.same(pinned.outputs['Calc-1'].content, { result: '2' }, 'the pinned version runs');
    t.equal(pinned.metadata.flow_version, v1);
    const versions = await (await server.request(`/api/v1/flows/${calc.id}/versions`)).json();
    t.same(versions.map((v: any) => v.version), [v1, current.metadata.flow_version], 'history oldest first');
    const unknown = await postWorkflow(server, { flow_id: calc.id, flow_version: 'deadbeefdeadbeef' });
    t.equal(unknown.status, 404);
    t.match(await unknown.json(), { code: 'FLOW_VERSION_NOT_FOUND', detail: /deadbeefdeadbeef/ });
  });

  t.test('refusals', async (t) => {
    const unknownFlow = await postWorkflow(server, { flow_id: '00000000-0000-0000-0000-000000000000' });
    t.equal(unknownFlow.status, 404);
    t.match(await unknownFlow.json(), { code: 'FLOW_NOT_FOUND', detail: /does not exist/ });

    const extra = await postWorkflow(server, { flow_id: echo.id, tweaks: {} });
    t.equal(extra.status, 422);
    t.match(await extra.json(), { detail: [{ loc: ['body', 'tweaks'], type: 'extra_forbidden' }] });

    const noFlow = await postWorkflow(server, { inputs: {} });
    t.equal(noFlow.status, 422);
    t.match(await noFlow.json(), { detail: [{ loc: ['body', 'flow_id'], type: 'missing' }] });

    const unknownComponent = await postWorkflow(server, { flow_id: echo.id, inputs: { 'Nope-1.input_value': 'x' } });
    t.equal(unknownComponent.status, 422);
    t.match(await unknownComponent.json(), { detail: [{ loc: ['body', 'inputs', 'Nope-1.input_value'], msg: /Nope-1/ }] });

    const badKey = await postWorkflow(server, { flow_id: echo.id, inputs: { plain: 'x' } });
    t.equal(badKey.status, 422);
    t.match(await badKey.json(), { detail: [{ loc: ['body', 'inputs', 'plain'], msg: /<component_id>\.<param_name>/ }] });

    const longKey = await postWorkflow(server, { flow_id: echo.id, globals: { ['K'.repeat(257)]: 'x' } });
    t.equal(longKey.status, 422);
    const badChars = await postWorkflow(server, { flow_id: echo.id, globals: { 'A$B': 'x' } });
    t.equal(badChars.status, 422);
    t.match(await badChars.json(), { detail: [{ loc: ['body', 'globals', 'A$B'] }] });
    const bigValue = await postWorkflow(server, { flow_id: echo.id, globals: { BIG: 'é'.repeat(33 * 1024) } });
    t.equal(bigValue.status, 422, 'a value over 64 KB in UTF-8 is refused');
    const notString = await postWorkflow(server, { flow_id: echo.id, globals: { N: 5 } });
    t.equal(notString.status, 422);
    const unicode = await postWorkflow(server, { flow_id: echo.id, globals: { 'ключ_1': 'значение ✓' } });
    t.equal(unicode.status, 200, 'Unicode names and values are fine');

    const noKey = await server.request('/api/v2/workflows', { method: 'POST', json: { flow_id: echo.id }, key: '' });
    t.equal(noKey.status, 401);
    const badJson = await server.request('/api/v2/workflows', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
    t.equal(badJson.status, 422);
  });

  t.test("another user's flow is not found", async (t) => {
    const other = await createUserWithKey(server, 'v2-other');
    const res = await postWorkflow(server, { flow_id: echo.id }, { key: other.apiKey });
    t.equal(res.status, 404);
  });
});

t.test('FLOWSVC_DEVELOPER_API_ENABLED=false answers 404 on every v2 workflow endpoint', async (t) => {
  const server = await startTestServer({ DEVELOPER_API_ENABLED: 'false' });
  t.teardown(() => server.close());
  const echo = await createFlow(server, echoFlow('Off'));
  t.equal((await postWorkflow(server, { flow_id: echo.id })).status, 404);
  t.equal((await server.request('/api/v2/workflows?job_id=00000000-0000-0000-0000-000000000000')).status, 404);
  t.equal((await server.request('/api/v2/workflows/stop', { method: 'POST', json: { job_id: '00000000-0000-0000-0000-000000000000' } })).status, 404);
  t.equal((await server.request(`/api/v1/run/${echo.id}`, { method: 'POST', json: { input_value: 'v1 still works' } })).status, 200);
});
