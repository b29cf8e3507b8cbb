/**
 * Language Model and the provider model components, black-box: the service runs flows over HTTP and calls the
 * local model server (test/support/model-server.ts) through the AI SDK, never a hosted model.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { chatModelFlow, HEADER_KEY, keyVariable, modelClient, startModelStack } from './support/model-flows.js';
import type { TestServer } from './support/server.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;

t.before(async () => {
  ({ model, server, close } = await startModelStack({ storeKey: true }));
});

const keyHeader = (value = 'k') => ({ [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: value });
t.teardown(() => close());

const lmTemplate = (extra: Record<string, unknown> = {}) => ({ provider: 'OpenAI', model_name: 'gpt-4o', api_key: keyVariable(), system_message: 'Answer briefly.', temperature: 0.3, ...extra });

t.test('Chat Input -> Language Model -> Chat Output answers with the model reply', async (t) => {
  const created = await createFlow(server, chatModelFlow('Basic prompting', 'LanguageModelComponent', lmTemplate()));
  const before = model.chats.length;
  const response = await modelClient(server).flow(created.id).run('hello model');
  t.equal(response.chatOutputText(), 'You said: hello model');

  const request = model.chats[before];
  t.equal(request.path, '/v1/chat/completions', 'OpenAI is called through chat completions');
  t.equal(request.headers.authorization, 'Bearer sk-from-header', 'the key comes from the X-FLOWSVC-GLOBAL-VAR-<name> header');
  t.equal(request.body.model, 'gpt-4o');
  t.equal(request.body.temperature, 0.3);
  t.same(request.body.messages, [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content: 'hello model' },
  ]);
  t.notOk(request.body.stream, 'a batch run does not stream');

  const message = response.outputs[0].outputs[0].results.message as any;
  t.same(message.properties.usage, { prompt_tokens: 4, completion_tokens: 4, total_tokens: 8 }, 'token usage is kept in the message properties');
  t.equal(message.properties.source.id, 'LanguageModelComponent-model1', 'the source is the model node');
  t.equal(message.properties.source.source, 'gpt-4o', 'whose source is the model name');
  t.equal(message.properties.state, 'complete');
});

t.test('a scripted reply, and a Chat Output fed by a model stores one AI message', async (t) => {
  const created = await createFlow(server, chatModelFlow('Scripted', 'LanguageModelComponent', lmTemplate()));
  model.script({ text: 'Paris is the capital of France.', usage: { prompt_tokens: 11, completion_tokens: 7 } });
  const response = await modelClient(server).flow(created.id).run('capital of France?', { session_id: 'geo' });
  t.equal(response.chatOutputText(), 'Paris is the capital of France.');
  const stored = await server.services.store.messages.session(created.id, 'geo', {});
  t.same(stored.map((m) => [m.sender, m.text]), [['User', 'capital of France?'], ['Machine', 'Paris is the capital of France.']]);
  t.same(stored[1].properties.usage, { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
});

t.test('the Langflow 1.7+ `model` field: a selection works, the 1.8 starters\' empty list takes the caller\'s default model', async (t) => {
  const selected = await createFlow(server, chatModelFlow('Model picker', 'LanguageModelComponent', { model: [{ name: 'gpt-4.1-mini', provider: 'OpenAI', metadata: { model_class: 'ChatOpenAI' } }], api_key: '', temperature: 0.2 }));
  const before = model.chats.length;
  const ok = await modelClient(server).flow(selected.id).run('picked');
  t.equal(ok.chatOutputText(), 'You said: picked');
  t.equal(model.chats[before].body.model, 'gpt-4.1-mini');
  t.equal(model.chats[before].headers.authorization, 'Bearer sk-stored', 'an empty api_key falls back to the provider\'s global variable (OPENAI_API_KEY)');

  // An empty list (the current starters ship one) takes the caller's default: their stored OPENAI_API_KEY enables
  // OpenAI, whose default model answers. With no provider enabled it is a 400 naming the setting (model-defaults.test.ts).
  const empty = await createFlow(server, chatModelFlow('Model picker, empty', 'LanguageModelComponent', { model: [], api_key: '' }));
  const res = await server.request(`/api/v1/run/${empty.id}`, { method: 'POST', json: { input_value: 'x' }, headers: keyHeader() });
  t.equal(res.status, 200);
  t.equal(model.chats.length, before + 2, 'the model was called');
  t.equal(model.chats[before + 1].body.model, 'gpt-4o-mini', 'the first enabled provider\'s default model');
  t.equal(model.chats[before + 1].headers.authorization, 'Bearer sk-stored', 'with the caller\'s stored key');

  const unknown = await createFlow(server, chatModelFlow('Unknown provider', 'LanguageModelComponent', { model: [{ name: 'x', provider: 'Acme AI' }] }));
  const bad = await server.request(`/api/v1/run/${unknown.id}`, { method: 'POST', json: { input_value: 'x' } });
  t.match(JSON.stringify(await bad.json()), /Model provider \\"Acme AI\\" is not supported/);
});

t.test('provider errors fail the run with the provider\'s status and message, naming the component', async (t) => {
  const created = await createFlow(server, chatModelFlow('Bad key', 'LanguageModelComponent', lmTemplate()));
  model.script({ error: { status: 401, message: 'Incorrect API key provided: sk-bad.', code: 'invalid_api_key' } });
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi' }, headers: keyHeader('sk-bad') });
  t.equal(res.status, 500);
  const detail = JSON.stringify(await res.json());
  t.match(detail, /Error building Component Language Model \(LanguageModelComponent-model1\)/);
  t.match(detail, /OpenAI API error 401/);
  t.match(detail, /Incorrect API key provided: sk-bad\./);
});

t.test('a missing key is a clear error before any call', async (t) => {
  const created = await createFlow(server, chatModelFlow('No key', 'LanguageModelComponent', lmTemplate({ provider: 'Anthropic', model_name: 'claude-3-5-haiku-latest', api_key: '' })));
  const before = model.chats.length;
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi' } });
  t.equal(res.status, 500);
  t.match(JSON.stringify(await res.json()), /Anthropic API key is required when using Anthropic provider/);
  t.equal(model.chats.length, before);

  const named = await createFlow(server, chatModelFlow('Key variable missing', 'LanguageModelComponent', lmTemplate({ api_key: keyVariable('NOPE') })));
  const missing = await server.request(`/api/v1/run/${named.id}`, { method: 'POST', json: { input_value: 'hi' } });
  t.equal(missing.status, 400, 'an api_key naming an unknown global variable is the caller\'s to fix');
  t.match(JSON.stringify(await missing.json()), /Variable NOPE not found/);
});

t.test('an empty input with no system message is refused', async (t) => {
  const created = await createFlow(server, chatModelFlow('Empty', 'LanguageModelComponent', lmTemplate({ system_message: '' })));
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: '' }, headers: keyHeader() });
  t.equal(res.status, 500);
  t.match(JSON.stringify(await res.json()), /The message you want to send to the model is empty/);
});

t.test('OpenAI: the openai_api_base field wins over OPENAI_BASE_URL; seed, max tokens and the key field reach the API', async (t) => {
  const other = await startModelServer();
  t.teardown(() => other.close());
  const template = { model_name: 'gpt-4o-mini', openai_api_base: other.baseURL, api_key: { value: 'sk-literal', load_from_db: false }, temperature: 0.5, seed: 7, max_tokens: 64 };
  const created = await createFlow(server, chatModelFlow('OpenAI node', 'OpenAIModel', template));
  other.script({ text: 'from the other server' });
  const before = model.chats.length;
  const response = await modelClient(server, {}).flow(created.id).run('hi');
  t.equal(response.chatOutputText(), 'from the other server');
  t.equal(model.chats.length, before, 'the environment\'s server was not called');
  const body = other.chats[0].body;
  t.same([body.model, body.temperature, body.seed, body.max_tokens], ['gpt-4o-mini', 0.5, 7, 64]);
  t.equal(other.chats[0].headers.authorization, 'Bearer sk-literal');

  const json = await createFlow(server, chatModelFlow('OpenAI JSON mode', 'OpenAIModel', { ...template, json_mode: true }));
  other.script({ json: { city: 'Paris', population: 2100000 } });
  const reply = await modelClient(server, {}).flow(json.id).run('city facts');
  t.same(JSON.parse(reply.chatOutputText() ?? ''), { city: 'Paris', population: 2100000 });
  t.same(other.chats[1].body.response_format, { type: 'json_object' }, 'json_mode asks for a JSON object');
});

t.test('Anthropic: the Messages API, streamed, with the key in x-api-key', async (t) => {
  const template = { model_name: 'claude-3-5-haiku-latest', base_url: model.url, api_key: keyVariable('ANTHROPICKEY'), system_message: 'Be kind.', max_tokens: 100 };
  const created = await createFlow(server, chatModelFlow('Anthropic node', 'AnthropicModel', template));
  const before = model.chats.length;
  const events: { event: string; data: any }[] = [];
  const client = modelClient(server, { ANTHROPICKEY: 'sk-ant-test' });
  for await (const event of (await client.flow(created.id).stream('hello claude')) as unknown as AsyncIterable<{ event: string; data: any }>) events.push(event);
  const request = model.chats[before];
  t.equal(request.path, '/v1/messages', 'base_url without /v1 gets it added');
  t.equal(request.headers['x-api-key'], 'sk-ant-test');
  t.equal(request.body.system[0].text, 'Be kind.');
  t.equal(request.body.max_tokens, 100);
  t.equal(request.body.stream, true, 'a streaming run into a Chat Output streams');
  t.same(events.filter((e) => e.event === 'token').map((e) => e.data.chunk), ['You', ' said:', ' hello', ' claude']);
  const end = events.at(-1)!;
  t.equal(end.event, 'end');
  t.equal(end.data.result.outputs[0].outputs[0].results.message.text, 'You said: hello claude');
  t.same(end.data.result.outputs[0].outputs[0].results.message.properties.usage, { prompt_tokens: 4, completion_tokens: 4, total_tokens: 8 });

});

t.test('Anthropic errors carry Anthropic\'s message', async (t) => {
  const created = await createFlow(server, chatModelFlow('Anthropic error', 'AnthropicModel', { model_name: 'claude-3-5-haiku-latest', base_url: model.url, api_key: { value: 'k', load_from_db: false } }));
  model.script({ error: { status: 400, message: 'messages: roles must alternate' } });
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'x' } });
  const detail = JSON.stringify(await res.json());
  t.match(detail, /Anthropic API error 400/);
  t.match(detail, /messages: roles must alternate/);
});

t.test('Ollama: the OpenAI-compatible endpoint under base_url, no key', async (t) => {
  const created = await createFlow(server, chatModelFlow('Ollama node', 'OllamaModel', { base_url: model.url, model_name: 'llama3.2', temperature: 0.4, stop_tokens: 'END, STOP' }));
  const before = model.chats.length;
  const response = await modelClient(server, {}).flow(created.id).run('hi llama');
  t.equal(response.chatOutputText(), 'You said: hi llama');
  const request = model.chats[before];
  t.equal(request.path, '/v1/chat/completions');
  t.equal(request.body.model, 'llama3.2');
  t.same(request.body.stop, ['END', 'STOP']);
  t.notOk(request.headers.authorization, 'no key is sent');

  const unnamed = await createFlow(server, chatModelFlow('Ollama, no model', 'OllamaModel', { base_url: model.url }));
  const res = await server.request(`/api/v1/run/${unnamed.id}`, { method: 'POST', json: { input_value: 'x' } });
  t.match(JSON.stringify(await res.json()), /Model Name\\" \(model_name\) is empty/);
});

t.test('a Language Model output in a run reply shows the model, never its key', async (t) => {
  const lmOnly = flow('LM only', [node('ChatInput-in001', 'ChatInput'), node('LanguageModelComponent-lm001', 'LanguageModelComponent', lmTemplate({ api_key: { value: 'sk-secret-value', load_from_db: false } }))], [edge('ChatInput-in001', 'message', 'LanguageModelComponent-lm001', 'input_value')]);
  const created = await createFlow(server, lmOnly);
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi', output_component: 'LanguageModelComponent-lm001' } });
  t.equal(res.status, 200);
  const raw = await res.text();
  t.notMatch(raw, /sk-secret-value/, 'the key stays inside the model value');
  const results = JSON.parse(raw).outputs[0].outputs[0].results;
  t.equal(results.text_output.text, 'You said: hi', 'a vertex without edges computes both outputs');
  t.match(results.model_output, { kind: 'language_model', provider: 'OpenAI', model: 'gpt-4o', baseURL: model.baseURL, settings: { temperature: 0.3 } });
});

t.test('the model server lists models', async (t) => {
  const res = await fetch(`${model.baseURL}/models`);
  t.equal(res.status, 200);
  t.ok((await res.json()).data.some((m: { id: string }) => m.id === 'gpt-4o-mini'));
});
