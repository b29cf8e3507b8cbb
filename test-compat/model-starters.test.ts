/**
 * Langflow's starter projects that need a model, run unchanged against the local model server, and Structured
 * Output on its own (rows from a scripted JSON reply).
 */
import t from 'tap';
import { createFlow, starterFlow } from '../test/support/flow-helpers.js';
import { edge, flow, node } from '../test/support/langflow-json.js';
import type { ModelServer } from '../test/support/model-server.js';
import { keyVariable, modelClient, startModelStack } from '../test/support/model-flows.js';
import type { TestServer } from '../test/support/server.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;

t.before(async () => {
  ({ model, server, close } = await startModelStack({ storeKey: true }));
});
t.teardown(() => close());

t.test('Basic Prompting (1.6 starter): the Prompt is the system message, the chat input the user turn', async (t) => {
  const created = await createFlow(server, starterFlow('Basic Prompting'));
  const before = model.chats.length;
  const response = await modelClient(server, {}).flow(created.id).run('How do I start?');
  t.equal(response.chatOutputText(), 'You said: How do I start?');
  const request = model.chats[before];
  t.equal(request.body.model, 'gpt-4o-mini');
  t.equal(request.body.temperature, 0.1);
  t.equal(request.headers.authorization, 'Bearer sk-stored');
  t.same(request.body.messages.map((m: { role: string }) => m.role), ['system', 'user']);
  t.match(request.body.messages[0].content, /^Answer the user as if you were a GenAI expert/);
});

t.test('Basic Prompting (1.8 starter) ships `model: []`: the field takes the first enabled provider\'s default', async (t) => {
  const created = await createFlow(server, starterFlow('v1.8.0-dev/Basic Prompting'));
  const before = model.chats.length;
  const response = await modelClient(server, {}).flow(created.id).run('hi');
  t.equal(response.chatOutputText(), 'You said: hi');
  t.equal(model.chats[before].body.model, 'gpt-4o-mini', 'OpenAI is enabled by the stored OPENAI_API_KEY');
  t.equal(model.chats[before].headers.authorization, 'Bearer sk-stored');
});

t.test('Memory Chatbot: the second turn\'s system message carries the first exchange', async (t) => {
  const created = await createFlow(server, starterFlow('Memory Chatbot'));
  const client = modelClient(server, {}).flow(created.id);
  model.script({ text: 'Nice to meet you, Ada.' });
  await client.run('My name is Ada', { session_id: 'memory-1' });
  const before = model.chats.length;
  const second = await client.run('what is my name', { session_id: 'memory-1' });
  t.equal(second.chatOutputText(), 'You said: what is my name');
  const system = model.chats[before].body.messages[0];
  t.equal(system.role, 'system');
  t.match(system.content, /User: My name is Ada\nAI: Nice to meet you, Ada\./);
});

t.test('Financial Report Parser: Language Model -> Structured Output -> Parser -> Chat Output', async (t) => {
  const created = await createFlow(server, starterFlow('Financial Report Parser'));
  model.script({ json: { objects: [{ EBITDA: '$900 million', NET_INCOME: '$500 million', GROSS_PROFIT: '$1.2 billion' }] } });
  const before = model.chats.length;
  const response = await modelClient(server, {}).flow(created.id).run('In 2022 the gross profit was $1.2 billion, EBITDA $900 million, net income $500 million.');
  t.equal(response.chatOutputText(), 'EBITDA: $900 million  ,  Net Income: $500 million , GROSS_PROFIT: $1.2 billion');
  t.equal(model.chats.length, before + 1, 'only Structured Output calls the model (the text output is not wired)');
  const body = model.chats[before].body;
  t.equal(body.response_format.type, 'json_schema', 'the JSON-schema output of the provider is used');
  const row = body.response_format.json_schema.schema.properties.objects.items;
  t.same(Object.keys(row.properties), ['EBITDA', 'NET_INCOME', 'GROSS_PROFIT']);
  t.same(row.properties.EBITDA, { type: ['string', 'null'], description: 'description of field' });
  t.match(body.messages[0], { role: 'system', content: /extracts structured JSON objects/ });
});

/** Chat Input -> Structured Output <- Language Model.model_output; Structured Output is the reported vertex. */
function structuredFlow(outputSchema: unknown[], extra: Record<string, unknown> = {}) {
  return flow(
    'Structured',
    [
      node('ChatInput-in001', 'ChatInput'),
      node('LanguageModelComponent-lm001', 'LanguageModelComponent', { model_name: 'gpt-4o-mini', api_key: keyVariable('OPENAI_API_KEY') }),
      node('StructuredOutput-so001', 'StructuredOutput', { output_schema: outputSchema, schema_name: 'Person', ...extra }, 'Structured Output'),
    ],
    [edge('ChatInput-in001', 'message', 'StructuredOutput-so001', 'input_value'), edge('LanguageModelComponent-lm001', 'model_output', 'StructuredOutput-so001', 'llm')],
  );
}

const runStructured = async (flowId: string, input: string) => {
  const res = await server.request(`/api/v1/run/${flowId}`, { method: 'POST', json: { input_value: input, output_component: 'StructuredOutput-so001' } });
  return { status: res.status, body: await res.json() };
};

t.test('Structured Output: several rows, list fields, and both outputs', async (t) => {
  const schema = [
    { name: 'name', description: 'Full name', type: 'str', multiple: 'False' },
    { name: 'age', description: 'Age in years', type: 'int', multiple: false },
    { name: 'languages', description: 'Spoken languages', type: 'str', multiple: 'True' },
  ];
  const created = await createFlow(server, structuredFlow(schema));
  const people = [
    { name: 'Ada', age: 36, languages: ['en', 'fr'] },
    { name: 'Alan', age: 41, languages: ['en'] },
  ];
  model.script({ json: { objects: people } });
  const before = model.chats.length;
  const { status, body } = await runStructured(created.id, 'Ada (36) speaks English and French; Alan (41) English.');
  t.equal(status, 200);
  const results = body.outputs[0].outputs[0].results;
  t.same(results.structured_output.data, { results: people }, 'several rows come out as {results: [...]}');
  t.same(results.dataframe_output, people, 'the table holds one row per object');
  const format = model.chats[before].body.response_format.json_schema;
  t.equal(format.name, 'Person', 'the schema name is sent');
  t.same(format.schema.properties.objects.items.properties.languages, { type: 'array', items: { type: ['string', 'null'] }, description: 'Spoken languages' });
  t.same(format.schema.properties.objects.items.properties.age.type, ['integer', 'null']);

  model.script({ json: { objects: [people[0]] } });
  const single = await runStructured(created.id, 'Ada');
  t.same(single.body.outputs[0].outputs[0].results.structured_output.data, people[0], 'one row comes out as that row');
});

t.test('Structured Output refuses an empty schema, an unknown type, a missing model, and an empty reply', async (t) => {
  const empty = await createFlow(server, structuredFlow([]));
  const before = model.chats.length;
  t.match(JSON.stringify((await runStructured(empty.id, 'x')).body), /Output schema cannot be empty \(output_schema\)/);
  const badType = await createFlow(server, structuredFlow([{ name: 'when', type: 'date' }]));
  t.match(JSON.stringify((await runStructured(badType.id, 'x')).body), /unknown type \\"date\\"/);
  t.equal(model.chats.length, before, 'no model call for a bad schema');

  const noModel = await createFlow(server, flow('No model', [node('ChatInput-in001', 'ChatInput'), node('StructuredOutput-so001', 'StructuredOutput', {})], [edge('ChatInput-in001', 'message', 'StructuredOutput-so001', 'input_value')]));
  t.match(JSON.stringify((await runStructured(noModel.id, 'x')).body), /A language model is required.*\(llm\)/);

  const created = await createFlow(server, structuredFlow([{ name: 'name', type: 'str' }]));
  model.script({ json: { objects: [] } });
  t.match(JSON.stringify((await runStructured(created.id, 'nobody here')).body), /No structured output returned/);
});

t.test('Memory Chatbot: another session does not see the first one', async (t) => {
  const created = await createFlow(server, starterFlow('Memory Chatbot'));
  const client = modelClient(server, {}).flow(created.id);
  await client.run('My name is Grace', { session_id: 'memory-a' });
  const before = model.chats.length;
  await client.run('what is my name', { session_id: 'memory-b' });
  t.notMatch(JSON.stringify(model.chats[before].body.messages), /Grace/, 'no history leaks across sessions');
});

t.test('Document Q&A (whole starter): a file uploaded through v2, given by its path, reaches the model with the question', async (t) => {
  const client = modelClient(server, {});
  const uploaded = await client.files.upload(new File(['Opening hours: 9 to 5, Monday to Friday.'], 'handbook.md'));
  const created = await createFlow(server, starterFlow('Document Q&A'));
  const fileNode = created.data.nodes.find((n: any) => n.data?.type === 'File').id;
  const before = model.chats.length;
  const response = await client.flow(created.id).run('When are you open?', { tweaks: { [fileNode]: { path: uploaded.path } } });
  t.match(response.chatOutputText(), /^You said: /);
  t.match(JSON.stringify(model.chats[before].body.messages), /Opening hours: 9 to 5/, 'the document is in the prompt');
});

t.test('Document Q&A (whole starter): a file uploaded to the flow through v1, given by its file_path', async (t) => {
  const client = modelClient(server, {});
  const created = await createFlow(server, starterFlow('Document Q&A'));
  const uploaded = await client.flow(created.id).uploadFile(new File(['Closed on Sundays.'], 'hours.txt'));
  const fileNode = created.data.nodes.find((n: any) => n.data?.type === 'File').id;
  const before = model.chats.length;
  const response = await client.flow(created.id).run('Are you open on Sunday?', { tweaks: { [fileNode]: { path: uploaded.filePath } } });
  t.match(response.chatOutputText(), /^You said: /);
  t.match(JSON.stringify(model.chats[before].body.messages), /Closed on Sundays/, 'the document is in the prompt');
});

t.test('Twitter Thread Generator (whole starter): six inputs, one prompt, one model call', async (t) => {
  const created = await createFlow(server, starterFlow('Twitter Thread Generator'));
  const before = model.chats.length;
  const response = await modelClient(server, {}).flow(created.id).run('Launching flowsvc today');
  t.match(response.chatOutputText(), /^You said: /);
  t.equal(model.chats.length - before, 1);
  t.match(JSON.stringify(model.chats[before].body.messages), /Launching flowsvc today/, 'the chat input reaches the prompt');
});

t.test('Basic Prompt Chaining (whole starter): three models in a chain, each fed the previous answer', async (t) => {
  const created = await createFlow(server, starterFlow('Basic Prompt Chaining'));
  const before = model.chats.length;
  const response = await modelClient(server, {}).flow(created.id).run('a product idea');
  t.equal(model.chats.length - before, 3, 'three model calls');
  t.match(JSON.stringify(model.chats[before + 2].body.messages), /You said: /, 'the last model saw an earlier answer');
  t.match(response.chatOutputText(), /^You said: /);
});
