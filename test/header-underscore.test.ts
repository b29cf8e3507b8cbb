/**
 * A header name with `_` gets its answer with the default configuration, on every machine: Langflow's documented
 * X-LANGFLOW-GLOBAL-VAR-OPENAI_API_KEY and the spec's X-FLOWSVC-GLOBAL-VAR-<NAME> reach the run. (The uWS build on
 * Node 20 here drops such requests; the default, auto, then serves with node:http.)
 */
import t from 'tap';
import { answersUnderscoreHeaders, chooseAdapter } from '../src/edge/adapter-choice.js';
import { uwsIsNative } from '../src/edge/uws-native.js';
import { createFlow } from './support/flow-helpers.js';
import { chatModelFlow, keyVariable, openaiModelTemplate } from './support/model-flows.js';
import { startModelServer } from './support/model-server.js';
import { startTestServer } from './support/server.js';

t.test('the default adapter answers header names with "_", and the global variables they carry reach the model', async (t) => {
  const model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
  t.teardown(async () => {
    await server.close();
    await model.close();
  });
  const plain = await server.request('/api/v1/version', { headers: { X_Custom_Header: 'x' } });
  t.equal(plain.status, 200, 'any header name with "_"');
  const flow = await createFlow(server, chatModelFlow('Keyed', 'LanguageModelComponent', openaiModelTemplate({ api_key: keyVariable('OPENAI_API_KEY') })));
  for (const [header, key] of [['X-LANGFLOW-GLOBAL-VAR-OPENAI_API_KEY', 'sk-langflow-form'], ['X-FLOWSVC-GLOBAL-VAR-OPENAI_API_KEY', 'sk-spec-form']]) {
    const res = await server.request(`/api/v1/run/${flow['id']}`, { method: 'POST', json: { input_value: 'hi' }, headers: { [header]: key } });
    t.equal(res.status, 200, `${header}: answered`);
    t.equal(model.chats.at(-1)?.headers.authorization, `Bearer ${key}`, `${header}: the key reached the model`);
  }
});

t.test('auto serves with uWS only when the loaded build answers such headers', async (t) => {
  const choice = await chooseAdapter('auto');
  // Where no native uWS build loads (Node 22 and later here), nothing is probed: node:http serves.
  t.equal(choice.adapter === 'uws', uwsIsNative && (await answersUnderscoreHeaders()), choice.reason);
  t.notOk(choice.limitation, 'auto never picks an adapter with a known limitation');
  const forced = await chooseAdapter('node');
  t.equal(forced.adapter, 'node');
});
