/**
 * Batch Run on the YouTube Analysis starter's shape (its Batch Run node values: an empty model field, no column,
 * the `model_response` output column), fed a table by Type Convert where the starter has the YouTube API: each
 * row reaches the local model server once, as Langflow formats it, and the result keeps the rows' order.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startModelStack } from './support/model-flows.js';

const { model, server, close } = await startModelStack({ storeKey: true });
t.teardown(close);
const BATCH = 'BatchRunComponent-hJ8qJ';

function commentsFlow(name: string, values: Record<string, unknown> = {}) {
  return flow(
    name,
    [
      node('ChatInput-cmt01', 'ChatInput', {}, 'Chat Input'),
      node('TypeConverterComponent-cmt01', 'TypeConverterComponent', { output_type: 'DataFrame', auto_parse: true }, 'Type Convert'),
      node(BATCH, 'BatchRunComponent', { model: '', api_key: '', column_name: '', output_column_name: 'model_response', enable_metadata: false, system_message: 'Classify the sentiment.', ...values }, 'Batch Run'),
      node('ChatOutput-cmt01', 'ChatOutput', {}, 'Chat Output'),
    ],
    [
      edge('ChatInput-cmt01', 'message', 'TypeConverterComponent-cmt01', 'input_data'),
      edge('TypeConverterComponent-cmt01', 'dataframe_output', BATCH, 'df'),
      edge(BATCH, 'batch_results', 'ChatOutput-cmt01', 'input_value'),
    ],
  );
}

const comments = JSON.stringify([
  { author: 'ana', text: 'Loved it' },
  { author: 'bo', text: 'Too long' },
  { author: 'cy', text: 'Meh' },
]);

async function run(flowId: string, input: string) {
  const res = await server.request(`/api/v1/run/${flowId}`, { method: 'POST', json: { input_value: input } });
  return { status: res.status, body: await res.json() };
}

const outputText = (body: any): string => body.outputs[0].outputs[0].results.message.text;

t.test('each row reaches the model once (as TOML without a column), with the instructions; replies land in model_response, in order', async (t) => {
  const created = await createFlow(server, commentsFlow('Batch comments'));
  const before = model.chats.length;
  const { status, body } = await run(created.id, comments);
  t.equal(status, 200);
  const asked = model.chats.slice(before);
  t.equal(asked.length, 3);
  t.ok(asked.every((r) => r.body.messages[0].role === 'system' && r.body.messages[0].content === 'Classify the sentiment.'));
  const users = asked.map((r) => r.body.messages.at(-1).content).sort();
  t.same(users[0], '[author]\nvalue = "ana"\n\n[text]\nvalue = "Loved it"\n');
  const text = outputText(body);
  t.match(text, /\| author \| text \| model_response \| batch_index \|/);
  t.match(text, /\| ana \| Loved it \| You said: \[author\].*? \| 0 \|/s);
  t.match(text, /\| cy \| Meh \| You said: .*? \| 2 \|/s);
  t.notMatch(text, 'metadata');
});

t.test('a named column is the text asked; enable_metadata adds the metadata column; a missing column names the node', async (t) => {
  const created = await createFlow(server, commentsFlow('Batch by column', { column_name: 'text', output_column_name: 'sentiment', enable_metadata: true }));
  const before = model.chats.length;
  const { body } = await run(created.id, comments);
  t.same(model.chats.slice(before).map((r) => r.body.messages.at(-1).content).sort(), ['Loved it', 'Meh', 'Too long']);
  const text = outputText(body);
  t.match(text, /\| sentiment \| batch_index \| metadata \|/);
  t.match(text, '"processing_status":"success"');

  const missing = await createFlow(server, commentsFlow('Batch missing column', { column_name: 'body' }));
  const refused = await run(missing.id, comments);
  t.not(refused.status, 200);
  t.match(refused.body.detail, new RegExp(`${BATCH}.*Column 'body' not found in the DataFrame. Available columns: author, text`, 's'));
});
