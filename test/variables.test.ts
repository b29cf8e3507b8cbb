import t from 'tap';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

/** A flow whose Chat Input text comes from the global variable `name`. */
const greeterFlow = (name: string) =>
  flow('Greeter', [node('ChatInput-in001', 'ChatInput', { input_value: { value: name, load_from_db: true } }), node('ChatOutput-out01', 'ChatOutput')], [edge('ChatInput-in001', 'message', 'ChatOutput-out01', 'input_value')]);

async function runText(server: TestServer, flowId: string, headers: Record<string, string> = {}): Promise<{ status: number; text?: string; detail?: string }> {
  const res = await server.request(`/api/v1/run/${flowId}`, { method: 'POST', json: {}, headers });
  const body = await res.json();
  return { status: res.status, text: body.outputs?.[0]?.outputs?.[0]?.results?.message?.text, detail: body.detail };
}

t.test('variables: create, list, update, delete with Langflow rules', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'OPENAI_API_KEY', value: 'sk-secret', default_fields: [] } });
  t.equal(created.status, 201);
  const credential = await created.json();
  t.equal(credential.type, 'Credential', 'the default type is Credential');
  t.equal(credential.value, null, 'a credential value is never returned');

  const generic = await (await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'REGION', value: 'eu', type: 'Generic' } })).json();
  t.equal(generic.value, 'eu', 'generic values are readable');

  const list = await (await server.request('/api/v1/variables/')).json();
  t.same(list.map((v: any) => [v.name, v.value]), [['OPENAI_API_KEY', null], ['REGION', 'eu']]);

  const dup = await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'REGION', value: 'us' } });
  t.equal(dup.status, 400);
  t.same(await dup.json(), { detail: 'Variable name already exists' });
  for (const [body, message] of [
    [{ name: '', value: '' }, 'Variable name and value cannot be empty'],
    [{ name: '', value: 'x' }, 'Variable name cannot be empty'],
    [{ name: 'X', value: '' }, 'Variable value cannot be empty'],
  ] as const) {
    const res = await server.request('/api/v1/variables/', { method: 'POST', json: body });
    t.equal(res.status, 400);
    t.same(await res.json(), { detail: message });
  }
  const missingValue = await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'X' } });
  t.equal(missingValue.status, 422);

  const patched = await server.request(`/api/v1/variables/${generic.id}`, { method: 'PATCH', json: { value: 'us' } });
  t.equal((await patched.json()).value, 'us');
  const unknown = await server.request('/api/v1/variables/00000000-0000-0000-0000-000000000000', { method: 'PATCH', json: { value: 'x' } });
  t.equal(unknown.status, 404);
  t.same(await unknown.json(), { detail: 'Variable not found' });

  const deleted = await server.request(`/api/v1/variables/${generic.id}`, { method: 'DELETE' });
  t.equal(deleted.status, 204);
  t.equal((await (await server.request('/api/v1/variables/')).json()).length, 1);

  const stored = (await server.services.store.variables.get(credential.id))!;
  t.notMatch(stored.value, /sk-secret/, 'the credential is encrypted at rest');
});

t.test('runs resolve variables: header, then stored, then environment (by default); users do not share them', async (t) => {
  process.env.TEST_FALLBACK_GREETING = 'from env';
  t.teardown(() => delete process.env.TEST_FALLBACK_GREETING);
  const server = await startTestServer();
  t.teardown(() => server.close());

  const stored = await createFlow(server, greeterFlow('GREETING'));
  await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'GREETING', value: 'from store' } });
  t.equal((await runText(server, stored.id)).text, 'from store', 'a stored credential is decrypted for the run');
  t.equal((await runText(server, stored.id, { 'x-flowsvc-global-var-greeting': 'from header' })).text, 'from header', 'a header beats the store');

  const fromEnv = await createFlow(server, greeterFlow('TEST_FALLBACK_GREETING'));
  t.equal((await runText(server, fromEnv.id)).text, 'from env', 'the environment is the last resort');

  const other = await createUserWithKey(server, 'other');
  const theirs = await createFlow(server, greeterFlow('GREETING'), other.apiKey);
  const res = await server.request(`/api/v1/run/${theirs.id}`, { method: 'POST', json: {}, key: other.apiKey });
  t.equal(res.status, 400, "another user's variables are not visible");
  t.match((await res.json()).detail, /GREETING/);
});

t.test('FLOWSVC_FALLBACK_TO_ENV_VAR=true reads the environment as the default does', async (t) => {
  process.env.TEST_FALLBACK_GREETING = 'from env, asked for';
  t.teardown(() => delete process.env.TEST_FALLBACK_GREETING);
  const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'true' });
  t.teardown(() => server.close());
  const created = await createFlow(server, greeterFlow('TEST_FALLBACK_GREETING'));
  t.equal((await runText(server, created.id)).text, 'from env, asked for');
});

t.test("the environment fallback never hands a flow the service's own FLOWSVC_ settings", async (t) => {
  process.env.FLOWSVC_TEST_PRIVATE_SETTING = 'the service alone knows this';
  t.teardown(() => delete process.env.FLOWSVC_TEST_PRIVATE_SETTING);
  const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'true' });
  t.teardown(() => server.close());
  for (const name of ['FLOWSVC_TEST_PRIVATE_SETTING', 'flowsvc_test_private_setting']) {
    const created = await createFlow(server, greeterFlow(name));
    const result = await runText(server, created.id);
    t.equal(result.status, 400, `${name}: not found`);
    t.match(result.detail, /Variable \S+ not found/);
    t.notOk(JSON.stringify(result).includes('the service alone knows this'), `${name}: its value is not given out`);
  }
});

t.test('FLOWSVC_FALLBACK_TO_ENV_VAR=false (multi-tenant): a variable only in the environment fails the run', async (t) => {
  process.env.TEST_ONLY_IN_ENV = 'x';
  t.teardown(() => delete process.env.TEST_ONLY_IN_ENV);
  const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
  t.teardown(() => server.close());
  const created = await createFlow(server, greeterFlow('TEST_ONLY_IN_ENV'));
  const result = await runText(server, created.id);
  t.equal(result.status, 400);
  t.match(result.detail, /TEST_ONLY_IN_ENV/);
});

t.test('variables survive a restart and still decrypt', async (t) => {
  const first = await startTestServer();
  await first.request('/api/v1/variables/', { method: 'POST', json: { name: 'GREETING', value: 'kept' } });
  const created = await createFlow(first, greeterFlow('GREETING'));
  await first.stop();
  const second = await startTestServer({}, first.dataDir);
  t.teardown(async () => {
    await second.close();
    (await import('node:fs')).rmSync(first.dataDir, { recursive: true, force: true });
  });
  t.equal((await runText(second, created.id)).text, 'kept');
});

t.test('header variables: hyphens stand for underscores (uWS refuses header names with "_")', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, greeterFlow('MY_GREETING'));
  const result = await runText(server, created.id, { 'X-FLOWSVC-GLOBAL-VAR-MY-GREETING': 'hyphenated' });
  t.equal(result.text, 'hyphenated');
});
