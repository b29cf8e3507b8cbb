/**
 * Empty model fields (Langflow's current starters ship every `model` field empty) take the caller's default model:
 * their own (POST /api/v1/models/default_model), FLOWSVC_DEFAULT_MODEL, or the first enabled provider's default; with
 * none, the run is a 400 saying what to set. Runs go through the Langflow client against the local model server.
 */
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { loadConfig } from '../src/config.js';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { startTestServer, type TestServer } from './support/server.js';

const PROVIDER_VARIABLES = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_API_KEY', 'OLLAMA_BASE_URL'];
for (const name of PROVIDER_VARIABLES) delete process.env[name];

let model: ModelServer;
t.before(async () => {
  model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  process.env.ANTHROPIC_BASE_URL = model.baseURL;
});
t.teardown(() => model.close());

/** Chat Input -> <type> with `model: ""` (as the current starters ship it) -> Chat Output. */
function emptyModelFlow(type: 'LanguageModelComponent' | 'Agent', name = `Empty ${type}`) {
  const id = `${type}-empty1`;
  return flow(
    name,
    [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node(id, type, { model: '', api_key: '' }, type === 'Agent' ? 'Agent' : 'Language Model'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
    [edge('ChatInput-in001', 'message', id, 'input_value'), edge(id, type === 'Agent' ? 'response' : 'text_output', 'ChatOutput-out01', 'input_value')],
  );
}

async function withServer(overrides: Record<string, string>, body: (server: TestServer) => Promise<void>) {
  const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false', ...overrides });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

const client = (server: TestServer, apiKey = server.apiKey) => new LangflowClient({ baseUrl: server.url, apiKey });
const storeVariable = (server: TestServer, name: string, value: string, key?: string) =>
  server.request('/api/v1/variables/', { method: 'POST', json: { name, value, default_fields: [], type: 'Credential' }, ...(key ? { key } : {}) });

t.test('with no provider enabled and no setting, the run is one 400 naming every fix, and no model is called', (t) =>
  withServer({}, async (server) => {
    const created = await createFlow(server, emptyModelFlow('LanguageModelComponent'));
    const before = model.chats.length;
    const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi' } });
    t.equal(res.status, 400);
    const { detail } = await res.json();
    t.match(detail, /^Language Model \(LanguageModelComponent-empty1\): The "Language Model" field \(model\) is empty and there is no default language model/);
    for (const fix of ['FLOWSVC_DEFAULT_MODEL', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_API_KEY', 'OLLAMA_BASE_URL', 'FLOWSVC_FALLBACK_TO_ENV_VAR=true']) t.match(detail, fix);
    t.equal(model.chats.length, before, 'no model was called');

    const v2 = await server.request('/api/v2/workflows', { method: 'POST', json: { flow_id: created.id, background: false, inputs: { 'ChatInput-in001.input_value': 'hi' } } });
    const job = JSON.stringify(await v2.json());
    t.match(job, /MODEL_NOT_CONFIGURED/, 'the v2 error has its own code');
  }));

t.test('a stored OPENAI_API_KEY enables OpenAI: the field takes gpt-4o-mini, through the Langflow client', (t) =>
  withServer({}, async (server) => {
    t.equal((await storeVariable(server, 'OPENAI_API_KEY', 'sk-stored')).status, 201);
    const created = await createFlow(server, emptyModelFlow('LanguageModelComponent'));
    const before = model.chats.length;
    const reply = await client(server).flow(created.id).run('Hello there');
    t.equal(reply.chatOutputText(), 'You said: Hello there');
    t.equal(model.chats[before].body.model, 'gpt-4o-mini');
    t.equal(model.chats[before].headers.authorization, 'Bearer sk-stored');

    const off = await server.request('/api/v1/models/enabled_models', { method: 'POST', json: [{ provider: 'OpenAI', model_id: 'gpt-4o-mini', enabled: false }] });
    t.equal(off.status, 200);
    await client(server).flow(created.id).run('Again');
    t.equal(model.chats[before + 1].body.model, 'gpt-4o', 'a model turned off is passed over');
  }));

t.test('FLOWSVC_DEFAULT_MODEL picks the model; a request header can carry its key', (t) =>
  withServer({ DEFAULT_MODEL: 'openai/gpt-4o' }, async (server) => {
    const created = await createFlow(server, emptyModelFlow('Agent'));
    const refused = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi' } });
    t.equal(refused.status, 400, 'the setting names a provider without a key');
    t.match((await refused.json()).detail, /takes FLOWSVC_DEFAULT_MODEL, OpenAI gpt-4o, but OPENAI_API_KEY is not set for you/);

    const before = model.chats.length;
    const withKey = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey, defaultHeaders: new Headers({ 'X-FLOWSVC-GLOBAL-VAR-OPENAI-API-KEY': 'sk-header' }) as never });
    const reply = await withKey.flow(created.id).run('What now?');
    t.equal(reply.chatOutputText(), 'You said: What now?');
    t.equal(model.chats[before].body.model, 'gpt-4o', 'the Agent called the configured model');
    t.equal(model.chats[before].headers.authorization, 'Bearer sk-header');
  }));

t.test("the caller's own default wins over the setting and over the first enabled provider", (t) =>
  withServer({ DEFAULT_MODEL: 'openai/gpt-4o' }, async (server) => {
    await storeVariable(server, 'OPENAI_API_KEY', 'sk-openai');
    await storeVariable(server, 'ANTHROPIC_API_KEY', 'sk-anthropic');
    const set = await server.request('/api/v1/models/default_model', { method: 'POST', json: { provider: 'Anthropic', model_name: 'claude-3-5-haiku-latest', model_type: 'language' } });
    t.equal(set.status, 200);
    const created = await createFlow(server, emptyModelFlow('LanguageModelComponent'));
    const before = model.chats.length;
    await client(server).flow(created.id).run('hi');
    t.equal(model.chats[before].path, '/v1/messages', 'Anthropic was called');
    t.equal(model.chats[before].body.model, 'claude-3-5-haiku-latest');

    await server.request('/api/v1/models/default_model?model_type=language', { method: 'DELETE' });
    await client(server).flow(created.id).run('hi');
    t.equal(model.chats[before + 1].body.model, 'gpt-4o', 'cleared, the setting applies');
  }));

t.test("the superuser's runs read the provider keys from the environment; another user's do not (fallback off)", (t) =>
  withServer({}, async (server) => {
    process.env.OPENAI_API_KEY = 'sk-from-env';
    t.teardown(() => void delete process.env.OPENAI_API_KEY);
    const mine = await createFlow(server, emptyModelFlow('LanguageModelComponent'));
    const before = model.chats.length;
    await client(server).flow(mine.id).run('hi');
    t.equal(model.chats[before].headers.authorization, 'Bearer sk-from-env');

    const other = await secondUser(server);
    const theirs = await createFlow(server, emptyModelFlow('LanguageModelComponent'), other.key);
    const res = await server.request(`/api/v1/run/${theirs.id}`, { method: 'POST', json: { input_value: 'hi' }, key: other.key });
    t.equal(res.status, 400);
    t.match((await res.json()).detail, /no default language model/);
  }));

t.test('with FLOWSVC_FALLBACK_TO_ENV_VAR=true every user takes the environment key', (t) =>
  withServer({ FALLBACK_TO_ENV_VAR: 'true' }, async (server) => {
    process.env.OPENAI_API_KEY = 'sk-env-all';
    t.teardown(() => void delete process.env.OPENAI_API_KEY);
    const other = await secondUser(server);
    const theirs = await createFlow(server, emptyModelFlow('LanguageModelComponent'), other.key);
    const before = model.chats.length;
    const reply = await client(server, other.key).flow(theirs.id).run('hi');
    t.equal(reply.chatOutputText(), 'You said: hi');
    t.equal(model.chats[before].headers.authorization, 'Bearer sk-env-all');
  }));

t.test('a bad FLOWSVC_DEFAULT_MODEL stops start-up naming the variable', async (t) => {
  t.throws(() => loadConfig({ FLOWSVC_DEFAULT_MODEL: 'gpt-4o' }), /FLOWSVC_DEFAULT_MODEL=gpt-4o is not valid: expected provider\/model/);
  t.throws(() => loadConfig({ FLOWSVC_DEFAULT_EMBEDDING_MODEL: 'acme/embedder' }), /FLOWSVC_DEFAULT_EMBEDDING_MODEL=acme\/embedder is not valid: unknown provider "acme"/);
  t.equal(loadConfig({ FLOWSVC_DEFAULT_MODEL: 'Google Generative AI/gemini-2.5-flash' }).DEFAULT_MODEL, 'Google Generative AI/gemini-2.5-flash');
});
