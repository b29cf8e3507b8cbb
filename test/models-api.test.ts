/** Langflow's Models API over HTTP: the catalog, the caller's enabled providers and models, and bad input. */
import t from 'tap';
import { secondUser } from './support/flow-helpers.js';
import { startTestServer, type TestServer } from './support/server.js';

for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_API_KEY', 'OLLAMA_BASE_URL']) delete process.env[name];

let server: TestServer;
t.before(async () => {
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
});
t.teardown(() => server.close());

const get = async (path: string, init: Parameters<TestServer['request']>[1] = {}) => {
  const res = await server.request(path, init);
  return { status: res.status, body: await res.json() };
};

t.test('providers, and the variable that enables each', async (t) => {
  t.same((await get('/api/v1/models/providers')).body, ['Anthropic', 'Google Generative AI', 'Ollama', 'OpenAI']);
  t.same((await get('/api/v1/models/provider-variable-mapping')).body, {
    OpenAI: 'OPENAI_API_KEY',
    Anthropic: 'ANTHROPIC_API_KEY',
    'Google Generative AI': 'GOOGLE_API_KEY',
    Ollama: 'OLLAMA_BASE_URL',
  });
});

t.test('the catalog in Langflow\'s shape, filtered as Langflow filters it', async (t) => {
  const { status, body } = await get('/api/v1/models');
  t.equal(status, 200);
  const openai = body.find((p: { provider: string }) => p.provider === 'OpenAI');
  t.match(openai, { icon: 'OpenAI', api_docs_url: String, mapping: { model_class: 'ChatOpenAI', model_param: 'model' }, is_enabled: false });
  t.equal(openai.num_models, openai.models.length);
  t.same(openai.models[0], {
    model_name: 'gpt-4o-mini',
    metadata: { icon: 'OpenAI', tool_calling: true, reasoning: false, search: false, preview: false, not_supported: false, deprecated: false, default: true, model_type: 'llm' },
  });
  t.notOk(openai.models.some((m: { model_name: string }) => m.model_name === 'gpt-3.5-turbo'), 'deprecated models are left out');
  const withDeprecated = (await get('/api/v1/models?provider=OpenAI&include_deprecated=true')).body;
  t.ok(withDeprecated[0].models.some((m: { model_name: string }) => m.model_name === 'gpt-3.5-turbo'));

  const two = (await get('/api/v1/models?provider=OpenAI&provider=Anthropic')).body;
  t.same(two.map((p: { provider: string }) => p.provider), ['Anthropic', 'OpenAI'], 'repeated provider, alphabetical when none is enabled');
  const embeddings = (await get('/api/v1/models?model_type=embeddings')).body;
  t.ok(embeddings.length > 0);
  t.ok(embeddings.every((p: any) => p.models.every((m: any) => m.metadata.model_type === 'embeddings')));
  t.notOk(embeddings.some((p: { provider: string }) => p.provider === 'Anthropic'), 'Anthropic has no embedding model');
  const reasoning = (await get('/api/v1/models?provider=OpenAI&reasoning=true')).body;
  t.ok(reasoning[0].models.every((m: any) => m.metadata.reasoning));
  t.same((await get('/api/v1/models?model_name=nope')).body, []);
  t.equal((await get('/api/v1/models?tool_calling=maybe')).status, 422, 'a bad boolean is a 422');
});

t.test('a stored key enables its provider for its owner only; a header enables one for the request', async (t) => {
  t.same((await get('/api/v1/models/enabled_providers')).body.enabled_providers, []);
  const stored = await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'ANTHROPIC_API_KEY', value: 'sk-a', default_fields: [], type: 'Credential' } });
  t.equal(stored.status, 201);
  const mine = (await get('/api/v1/models/enabled_providers')).body;
  t.same(mine, { enabled_providers: ['Anthropic'], provider_status: { OpenAI: false, Anthropic: true, 'Google Generative AI': false, Ollama: false } });
  t.same((await get('/api/v1/models/enabled_providers?providers=Anthropic&providers=Ollama')).body, { enabled_providers: ['Anthropic'], provider_status: { Anthropic: true, Ollama: false } });
  const listed = (await get('/api/v1/models')).body;
  t.equal(listed[0].provider, 'Anthropic', 'enabled providers come first');

  const headers = { 'X-FLOWSVC-GLOBAL-VAR-GOOGLE-API-KEY': 'g-key' };
  t.same((await get('/api/v1/models/enabled_providers', { headers })).body.enabled_providers, ['Anthropic', 'Google Generative AI']);

  const other = await secondUser(server, 'models-other');
  t.same((await get('/api/v1/models/enabled_providers', { key: other.key })).body.enabled_providers, [], "another user's key is not yours");
});

t.test('enabled models: defaults of enabled providers, turned off and on one by one', async (t) => {
  const status = async () => (await get('/api/v1/models/enabled_models')).body.enabled_models;
  const before = await status();
  const anthropic = Object.keys(before.Anthropic);
  const [first] = anthropic;
  const notDefault = anthropic[anthropic.length - 1];
  t.equal(before.Anthropic[first], true, 'a default of an enabled provider is on');
  t.equal(before.OpenAI['gpt-4o-mini'], false, 'OpenAI is not enabled');
  t.equal(before.Anthropic[notDefault], false, 'past the first five, a model is off until turned on');

  const changed = await get('/api/v1/models/enabled_models', {
    method: 'POST',
    json: [
      { provider: 'Anthropic', model_id: first, enabled: false },
      { provider: 'Anthropic', model_id: notDefault, enabled: true },
    ],
  });
  t.same(changed.body, { disabled_models: [first], enabled_models: [notDefault] });
  const after = await status();
  t.equal(after.Anthropic[first], false);
  t.equal(after.Anthropic[notDefault], true);
  t.same((await get(`/api/v1/models/enabled_models?model_names=${notDefault}`)).body, { enabled_models: { Anthropic: { [notDefault]: true } } });
});

t.test('default model: set, read, cleared; bad input is refused', async (t) => {
  t.same((await get('/api/v1/models/default_model')).body, { default_model: null });
  const set = await get('/api/v1/models/default_model', { method: 'POST', json: { provider: 'openai', model_name: 'gpt-4o', model_type: 'language' } });
  t.same(set.body, { default_model: { provider: 'OpenAI', model_name: 'gpt-4o', model_type: 'language' } });
  t.same((await get('/api/v1/models/default_model?model_type=language')).body, set.body);
  t.same((await get('/api/v1/models/default_model?model_type=embedding')).body, { default_model: null });
  const listed = (await get('/api/v1/models?model_type=llm')).body;
  t.equal(listed[0].provider, 'OpenAI', 'the provider of your default comes first');
  t.same((await get('/api/v1/models/default_model', { method: 'DELETE' })).body, { default_model: null });
  t.same((await get('/api/v1/models/default_model')).body, { default_model: null });

  t.equal((await get('/api/v1/models/default_model', { method: 'POST', json: { provider: 'Acme', model_name: 'x', model_type: 'language' } })).status, 400);
  t.equal((await get('/api/v1/models/default_model', { method: 'POST', json: { provider: 'OpenAI', model_name: ' ', model_type: 'language' } })).status, 422);
  t.equal((await get('/api/v1/models/default_model', { method: 'POST', json: { provider: 'OpenAI', model_name: 'x'.repeat(201), model_type: 'language' } })).status, 422);
  t.equal((await get('/api/v1/models/default_model?model_type=video')).status, 422);
  const many = Array.from({ length: 101 }, (_, i) => ({ provider: 'OpenAI', model_id: `m${i}`, enabled: false }));
  const tooMany = await get('/api/v1/models/enabled_models', { method: 'POST', json: many });
  t.same(tooMany, { status: 400, body: { detail: 'Cannot update more than 100 models at once' } });
  t.equal((await get('/api/v1/models?provider=' + 'x'.repeat(300))).status, 422);
});

t.test('every route wants a signed-in caller', async (t) => {
  for (const path of ['/api/v1/models', '/api/v1/models/providers', '/api/v1/models/enabled_providers', '/api/v1/models/enabled_models', '/api/v1/models/default_model']) {
    t.ok([401, 403].includes((await server.request(path, { key: null })).status), path);
  }
  const spec = (await get('/openapi.json')).body;
  t.ok(spec.paths['/api/v1/models/enabled_providers'].get, 'documented in /openapi.json');
});
