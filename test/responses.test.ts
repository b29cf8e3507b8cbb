/**
 * POST /api/v1/responses through the official openai client: a flow id or endpoint name as `model`, the
 * Response with every fixed field, usage summed over the flow's model calls, and the key rules (x-api-key in
 * header or query; the client's Bearer header never authenticates).
 */
import OpenAI, { type APIError } from 'openai';
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import type { ModelServer } from './support/model-server.js';
import { chatModelFlow, keyVariable, openaiModelTemplate, startModelStack, twoModelChainFlow } from './support/model-flows.js';
import { openaiClient } from './support/responses.js';
import type { TestServer } from './support/server.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;
let client: OpenAI;

t.before(async () => {
  ({ model, server, close } = await startModelStack());
  client = openaiClient(server);
});
t.teardown(() => close());

t.test('create: the chat output\'s text in a message item, every fixed field, a unique id', async (t) => {
  const created = await createFlow(server, echoFlow('Echo for responses'));
  const response = await client.responses.create({ model: created.id, input: 'hello flow' });

  t.equal(response.output_text, 'hello flow', 'the client reads the reply text');
  t.match(response.id, /^resp_[0-9a-f]{32}$/);
  t.match(response, {
    object: 'response',
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: created.id,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: null,
    user: null,
    metadata: {},
  });
  const now = Math.floor(Date.now() / 1000);
  t.ok(response.created_at <= now && response.created_at > now - 60, 'created_at is Unix seconds');
  t.same(response.output, [
    { type: 'message', id: `msg_${response.id.slice(5)}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'hello flow', annotations: [] }] },
  ]);

  const again = await client.responses.create({ model: created.id, input: 'hello flow' });
  t.not(again.id, response.id, 'each response has its own id');
});

t.test('model may be the flow\'s endpoint name; the reply names the flow id', async (t) => {
  const created = await createFlow(server, echoFlow('Named echo', { endpoint_name: 'named-echo' }));
  const response = await client.responses.create({ model: 'named-echo', input: 'by name' });
  t.equal(response.model, created.id);
  t.equal(response.output_text, 'by name');
});

t.test('usage is summed over the flow\'s model calls, under both naming schemes', async (t) => {
  // Chat Input -> LM 1 -> LM 2 -> Chat Output: two model calls; the Chat Output copies LM 2's usage but is not counted.
  const chain = twoModelChainFlow('Two models');
  const created = await createFlow(server, chain);
  model.script({ text: 'first answer', usage: { prompt_tokens: 7, completion_tokens: 2 } }, { text: 'second answer', usage: { prompt_tokens: 11, completion_tokens: 3 } });
  const response = await client.responses.create({ model: created.id, input: 'count me' });
  t.equal(response.output_text, 'second answer');
  t.same(response.usage, {
    prompt_tokens: 18,
    completion_tokens: 5,
    total_tokens: 23,
    input_tokens: 18,
    output_tokens: 5,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  });
});

t.test('X-FLOWSVC-GLOBAL-VAR-* headers reach the flow (hyphens standing for underscores)', async (t) => {
  const created = await createFlow(server, chatModelFlow('Header key', 'LanguageModelComponent', openaiModelTemplate({ api_key: keyVariable('MY_MODEL_KEY') })));
  const before = model.chats.length;
  const response = await openaiClient(server, { headers: { 'X-FLOWSVC-GLOBAL-VAR-MY-MODEL-KEY': 'sk-hyphenated' } }).responses.create({ model: created.id, input: 'hi' });
  t.equal(response.output_text, 'You said: hi');
  t.equal(model.chats[before].headers.authorization, 'Bearer sk-hyphenated');
});

t.test('the key may come in the query; a Bearer header alone does not authenticate', async (t) => {
  const created = await createFlow(server, echoFlow('Auth echo'));
  const byQuery = await openaiClient(server, { key: null, query: { 'x-api-key': server.apiKey } }).responses.create({ model: created.id, input: 'query key' });
  t.equal(byQuery.output_text, 'query key');

  // The real key, but only as the client's own Bearer credential.
  const bearerOnly = openaiClient(server, { key: null, apiKey: server.apiKey });
  const error = await bearerOnly.responses.create({ model: created.id, input: 'no key' }).catch((e: unknown) => e);
  t.type(error, OpenAI.PermissionDeniedError);
  t.equal((error as APIError).status, 403);
  t.equal((error as APIError).type, 'permission_error', 'in OpenAI\'s error shape');

  const wrong = await openaiClient(server, { key: 'sk-not-a-key' }).responses.create({ model: created.id, input: 'x' }).catch((e: unknown) => e);
  t.type(wrong, OpenAI.PermissionDeniedError);
  t.match((wrong as APIError).message, /Invalid or missing API key/);
});

t.test('the response is recorded with its session, flow and owner', async (t) => {
  const created = await createFlow(server, echoFlow('Recorded echo'));
  const response = await client.responses.create({ model: created.id, input: 'keep me' });
  const record = await server.services.store.responses.get(response.id);
  t.match(record, { id: response.id, flow_id: created.id, session_id: response.id, user_id: server.services.superuserId, created_at: response.created_at });
  t.same(record?.response.output, response.output);
  const stored = await server.services.store.messages.session(created.id, response.id, {});
  t.same(stored.map((m) => m.text), ['keep me', 'keep me'], 'the first response names its conversation\'s session');
});
