/**
 * Errors of /api/v1/responses in OpenAI's body `{"error": {message, type, code, param}}`, each raised by the
 * openai client as its typed error: tools, a flow without Chat Input, an unknown flow, a failing run, and requests
 * the schema refuses.
 */
import OpenAI, { type APIError } from 'openai';
import t from 'tap';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import type { ModelServer } from './support/model-server.js';
import { chatModelFlow, keyVariable, openaiModelTemplate, startModelStack } from './support/model-flows.js';
import { openaiClient } from './support/responses.js';
import type { TestServer } from './support/server.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;
let client: OpenAI;
let echoId: string;

t.before(async () => {
  ({ model, server, close } = await startModelStack());
  client = openaiClient(server);
  echoId = (await createFlow(server, echoFlow('Echo for errors'))).id;
});
t.teardown(() => close());

/** The error a call raised (the test fails if it resolved). */
async function failure(call: Promise<unknown>): Promise<APIError> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof OpenAI.APIError)) throw new Error(`expected an APIError, got ${String(outcome)}`);
  return outcome;
}

t.test('tools (even an empty list) -> 400 tools_not_supported', async (t) => {
  for (const tools of [[{ type: 'function' as const, name: 'f', parameters: {}, strict: false }], []]) {
    const error = await failure(client.responses.create({ model: echoId, input: 'x', tools }));
    t.type(error, OpenAI.BadRequestError);
    t.match(error, { status: 400, code: 'tools_not_supported', type: 'invalid_request_error', param: 'tools' });
    t.match(error.message, /Tools are not supported yet/);
  }
});

t.test('a flow without a Chat Input -> 400 saying the flow needs one', async (t) => {
  const textOnly = flow('Text only', [node('TextInput-in001', 'TextInput'), node('TextOutput-out01', 'TextOutput')], [edge('TextInput-in001', 'text', 'TextOutput-out01', 'input_value')]);
  const created = await createFlow(server, textOnly);
  const error = await failure(client.responses.create({ model: created.id, input: 'x' }));
  t.type(error, OpenAI.BadRequestError);
  t.match(error.message, /Flow must have a ChatInput component/);
  t.equal(error.code, 'chat_input_required');
});

t.test('an unknown flow, or another user\'s -> 404 flow_not_found', async (t) => {
  for (const model of ['no-such-endpoint', '00000000-0000-4000-8000-000000000000']) {
    const error = await failure(client.responses.create({ model, input: 'x' }));
    t.type(error, OpenAI.NotFoundError);
    t.match(error, { status: 404, code: 'flow_not_found', param: 'model', type: 'invalid_request_error' });
    t.match(error.message, `Flow with id '${model}' not found`);
  }
  const other = await secondUser(server, 'responses-other');
  const error = await failure(openaiClient(server, { key: other.key }).responses.create({ model: echoId, input: 'x' }));
  t.type(error, OpenAI.NotFoundError, 'owner-scoped');
});

t.test('a failing run -> 500 processing_error naming the component; the client raises InternalServerError', async (t) => {
  const created = await createFlow(server, chatModelFlow('Failing', 'LanguageModelComponent', openaiModelTemplate()));
  model.script({ error: { status: 400, message: 'The model is on strike' } });
  const error = await failure(client.responses.create({ model: created.id, input: 'x' }));
  t.type(error, OpenAI.InternalServerError);
  t.equal(error.status, 500);
  t.equal(error.type, 'processing_error');
  t.match(error.message, /Error running graph: Error building Component Language Model \(LanguageModelComponent-model1\): .*The model is on strike/);

});

t.test('a variable nobody supplied fails the run as the caller\'s error (400), in the same shape', async (t) => {
  const created = await createFlow(server, chatModelFlow('Unsupplied', 'LanguageModelComponent', { provider: 'OpenAI', model_name: 'gpt-4o-mini', api_key: keyVariable('NEVER_SUPPLIED') }));
  const error = await failure(client.responses.create({ model: created.id, input: 'x' }));
  t.type(error, OpenAI.BadRequestError);
  t.equal(error.type, 'processing_error');
  t.match(error.message, /NEVER_SUPPLIED/);
});

t.test('the schema\'s refusals are 422 in OpenAI\'s shape, param naming the field', async (t) => {
  const arrayInput = await failure(client.responses.create({ model: echoId, input: [{ role: 'user', content: 'hi' }] }));
  t.type(arrayInput, OpenAI.UnprocessableEntityError);
  t.match(arrayInput, { status: 422, type: 'invalid_request_error', param: 'input' });

  const noModel = await server.request('/api/v1/responses', { method: 'POST', json: { input: 'x' } });
  t.equal(noModel.status, 422);
  t.same(await noModel.json(), { error: { message: 'model: Field required', type: 'invalid_request_error', code: 'missing', param: 'model' } });

  const badInclude = await server.request('/api/v1/responses', { method: 'POST', json: { model: echoId, input: 'x', include: ['ok', 3] } });
  t.match(await badInclude.json(), { error: { param: 'include[1]', code: 'string_type' } });

  const notJson = await server.request('/api/v1/responses', { method: 'POST', body: '{oops', headers: { 'content-type': 'application/json' } });
  t.equal(notJson.status, 422);
  t.match(await notJson.json(), { error: { type: 'invalid_request_error', param: null, message: /JSON decode error/ } });
});

t.test('unknown request fields are ignored (the client may send more than the spec reads)', async (t) => {
  const response = await client.responses.create({ model: echoId, input: 'extra', instructions: 'ignored', temperature: 0.2, metadata: { a: 'b' } });
  t.equal(response.output_text, 'extra');
  t.equal(response.temperature, 1, 'fixed values stay fixed');
});

t.test('other routes keep Langflow\'s {"detail"} errors', async (t) => {
  const res = await server.request('/api/v1/run/no-such-flow', { method: 'POST', json: {} });
  t.equal(res.status, 404);
  t.same(Object.keys(await res.json()), ['detail']);
});
