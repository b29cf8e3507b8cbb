import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { dataOperations } from '../src/components/data-operations/definition.js';
import { textInput } from '../src/components/io/text-io.js';
import { createFlow } from './support/flow-helpers.js';
import { graphOf, harness } from './support/engine-harness.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

/** The outputs of one vertex of a finished run. */
const result = (outcome: { results: ReadonlyMap<string, Record<string, unknown>> }, id: string) => outcome.results.get(id) as Record<string, any>;

const CSV = 'name|age|city\nAda|36|London\nAlan|41|Wilmslow\nGrace|85|Arlington\nÉmilie|30|Paris';

t.test('engine: Text → Table → Filter → Sort → Head, each a Data Operations instance', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  const graph = graphOf(
    [
      ['TextInput-1', textInput, { input_value: CSV }],
      ['DataOperations-parse', dataOperations, { input_type: 'Text', operation: [{ name: 'Text to DataFrame' }] }],
      ['DataOperations-filter', dataOperations, { input_type: 'Table', operation: 'Filter', column_name: 'age', filter_operator: 'greater than', filter_value: '32' }],
      ['DataOperations-sort', dataOperations, { input_type: 'Table', operation: 'Sort', column_name: 'age', ascending: false }],
      ['DataOperations-head', dataOperations, { input_type: 'Table', operation: 'Head', num_rows: 2 }],
    ],
    [
      ['TextInput-1', 'text', 'DataOperations-parse', 'text_input'],
      ['DataOperations-parse', 'dataframe', 'DataOperations-filter', 'df'],
      ['DataOperations-filter', 'dataframe', 'DataOperations-sort', 'df'],
      ['DataOperations-sort', 'dataframe', 'DataOperations-head', 'df'],
    ],
  );
  const outcome = await h.run(graph).outcome;
  t.equal(outcome.status, 'completed');
  t.same(result(outcome, 'DataOperations-head').dataframe.rows, [{ name: 'Grace', age: 85, city: 'Arlington' }, { name: 'Alan', age: 41, city: 'Wilmslow' }]);
  t.same(Object.keys(result(outcome, 'DataOperations-head')), ['dataframe'], 'the last node reports its natural output only');
});

t.test('engine: JSON chains (Word Count → JQ → Path Selection) and a Merge of two branches', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  const graph = graphOf(
    [
      ['TextInput-1', textInput, { input_value: 'to be or not to be' }],
      ['DataOperations-count', dataOperations, { input_type: 'Text', operation: 'Word Count', count_lines: false }],
      ['DataOperations-jq', dataOperations, { operation: 'JQ Expression', query: '{words: .word_count, ratio: (.unique_words / .word_count)}' }],
      ['DataOperations-path', dataOperations, { operation: 'Path Selection', selected_key: '.ratio' }],
      ['TextInput-a', textInput, { input_value: 'id,name\n1,Ada\n2,Alan' }],
      ['TextInput-b', textInput, { input_value: 'id,lang\n2,Lisp\n1,Notes' }],
      ['DataOperations-left', dataOperations, { operation: 'Text to DataFrame', table_separator: ',' }],
      ['DataOperations-right', dataOperations, { operation: 'Text to DataFrame', table_separator: ',' }],
      ['DataOperations-merge', dataOperations, { input_type: 'Table', operation: 'Merge', merge_on_column: 'id', merge_how: 'left' }],
      ['DataOperations-concat', dataOperations, { input_type: 'Table', operation: 'Concatenate' }],
    ],
    [
      ['TextInput-1', 'text', 'DataOperations-count', 'text_input'],
      ['DataOperations-count', 'data_output', 'DataOperations-jq', 'data'],
      ['DataOperations-jq', 'data_output', 'DataOperations-path', 'data'],
      ['TextInput-a', 'text', 'DataOperations-left', 'text_input'],
      ['TextInput-b', 'text', 'DataOperations-right', 'text_input'],
      ['DataOperations-left', 'dataframe', 'DataOperations-merge', 'left_dataframe'],
      ['DataOperations-right', 'dataframe', 'DataOperations-merge', 'right_dataframe'],
      ['DataOperations-left', 'dataframe', 'DataOperations-concat', 'df'],
      ['DataOperations-right', 'dataframe', 'DataOperations-concat', 'df'],
    ],
  );
  const outcome = await h.run(graph).outcome;
  t.equal(outcome.status, 'completed', outcome.failure?.error.message ?? 'no failure');
  t.same(result(outcome, 'DataOperations-jq').data_output.data, { words: 6, ratio: 4 / 6 });
  t.same(result(outcome, 'DataOperations-path').data_output.data, { result: 4 / 6 });
  t.same(result(outcome, 'DataOperations-merge').dataframe.rows, [{ id: 1, name: 'Ada', lang: 'Notes' }, { id: 2, name: 'Alan', lang: 'Lisp' }]);
  t.equal(result(outcome, 'DataOperations-concat').dataframe.rows.length, 4, 'two tables on df are stacked');
});

t.test('engine: a failing operation fails the run with an error naming the operation', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  const graph = graphOf(
    [
      ['TextInput-1', textInput, { input_value: 'a|b\n1|2' }],
      ['DataOperations-parse', dataOperations, { operation: 'Text to DataFrame' }],
      ['DataOperations-drop', dataOperations, { operation: 'Drop Column', column_name: 'c' }],
    ],
    [
      ['TextInput-1', 'text', 'DataOperations-parse', 'text_input'],
      ['DataOperations-parse', 'dataframe', 'DataOperations-drop', 'df'],
    ],
  );
  const outcome = await h.run(graph).outcome;
  t.equal(outcome.status, 'failed');
  t.equal(outcome.failure?.vertexId, 'DataOperations-drop');
  t.equal(outcome.failure?.error.name, 'ComponentError');
  t.equal(outcome.failure?.error.message, 'Drop Column: column "c" (column_name) not found in the table. Available columns: ["a","b"]');
});

async function runFlow(server: TestServer, body: Record<string, unknown>, json: Record<string, unknown>) {
  const created = await createFlow(server, body);
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

t.test('/api/v1/run: a chat flow through three chained instances', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = flow(
    'Table pipeline',
    [
      node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'),
      node('DataOperations-parse', 'DataOperations', { input_type: 'Text', operation: [{ name: 'Text to DataFrame', icon: 'table' }] }),
      node('DataOperations-sort', 'DataOperations', { input_type: 'Table', operation: [{ name: 'Sort' }], column_name: 'age' }),
      node('DataOperations-cols', 'DataOperations', { input_type: 'Table', operation: [{ name: 'Select Columns' }], columns_to_select: ['name', 'age'] }),
      node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output'),
    ],
    [
      edge('ChatInput-in001', 'message', 'DataOperations-parse', 'text_input'),
      edge('DataOperations-parse', 'dataframe', 'DataOperations-sort', 'df'),
      edge('DataOperations-sort', 'dataframe', 'DataOperations-cols', 'df'),
      edge('DataOperations-cols', 'dataframe', 'ChatOutput-out01', 'input_value'),
    ],
  );
  const created = await createFlow(server, body);
  const reply = await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run(CSV);
  t.equal(reply.chatOutputText(), '| name | age |\n|:---|:---|\n| Émilie | 30 |\n| Ada | 36 |\n| Alan | 41 |\n| Grace | 85 |');

  const own = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: CSV, output_component: 'DataOperations-cols' } });
  const result = (await own.json()).outputs[0].outputs[0];
  t.same(result.outputs.dataframe, { message: [{ name: 'Émilie', age: 30 }, { name: 'Ada', age: 36 }, { name: 'Alan', age: 41 }, { name: 'Grace', age: 85 }], type: 'array' });
});

t.test('/api/v1/run: tweaks set data, df, left_dataframe and right_dataframe as JSON', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const json = flow(
    'JSON chain',
    [node('DataOperations-select', 'DataOperations', { operation: 'Select Keys', select_keys_input: ['items'] }), node('DataOperations-jq', 'DataOperations', { operation: 'JQ Expression', query: '[.items[] | select(.stock > 0) | .name]' }), node('ChatOutput-out01', 'ChatOutput')],
    [edge('DataOperations-select', 'data_output', 'DataOperations-jq', 'data'), edge('DataOperations-jq', 'message', 'ChatOutput-out01', 'input_value')],
  );
  const data = { items: [{ name: 'pen', stock: 3 }, { name: 'ink', stock: 0 }, { name: 'pad', stock: 7 }], shop: 'x' };
  const first = await runFlow(server, json, { tweaks: { 'DataOperations-select': { data } } });
  t.equal(first.status, 200, JSON.stringify(first.body));
  t.equal(first.body.outputs[0].outputs[0].results.message.text, '{\n  "result": [\n    "pen",\n    "pad"\n  ]\n}');

  const tables = flow(
    'Merge by tweaks',
    [node('DataOperations-merge', 'DataOperations', { input_type: 'Table', operation: 'Merge', merge_on_column: 'id' }), node('DataOperations-tail', 'DataOperations', { operation: 'Tail', num_rows: 1 }), node('ChatOutput-out01', 'ChatOutput')],
    [edge('DataOperations-merge', 'dataframe', 'DataOperations-tail', 'df'), edge('DataOperations-tail', 'dataframe', 'ChatOutput-out01', 'input_value')],
  );
  const merged = await runFlow(server, tables, {
    output_component: 'DataOperations-tail',
    tweaks: { 'DataOperations-merge': { left_dataframe: [{ id: 1, a: 'x' }, { id: 2, a: 'y' }], right_dataframe: [{ id: 2, b: 'z' }, { id: 1, b: 'w' }] } },
  });
  t.equal(merged.status, 200, JSON.stringify(merged.body));
  t.same(merged.body.outputs[0].outputs[0].outputs.dataframe.message, [{ id: 2, a: 'y', b: 'z' }]);

  const single = flow('Table by tweak', [node('DataOperations-sort', 'DataOperations', { operation: 'Sort', column_name: 'n', ascending: false })], []);
  const sorted = await runFlow(server, single, { output_component: 'DataOperations-sort', tweaks: { 'DataOperations-sort': { df: [{ n: 1 }, { n: 3 }, { n: 2 }] } } });
  t.equal(sorted.status, 200, JSON.stringify(sorted.body));
  t.same(sorted.body.outputs[0].outputs[0].outputs.dataframe.message, [{ n: 3 }, { n: 2 }, { n: 1 }], 'df given as JSON rows');
});

t.test('/api/v1/run: older node types load with their input type preset', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = flow(
    'Legacy nodes',
    [
      node('ChatInput-in001', 'ChatInput'),
      node('TextOperations-t1', 'TextOperations', { operation: [{ name: 'Text to DataFrame' }] }),
      node('DataFrameOperations-f1', 'DataFrameOperations', { operation: [{ name: 'Filter' }], column_name: 'city', filter_value: 'Paris' }),
      node('Operations-o1', 'Operations', { input_type: 'DataFrame', operation: [{ name: 'Head Rows' }], num_rows: 1 }),
      node('ChatOutput-out01', 'ChatOutput'),
    ],
    [
      edge('ChatInput-in001', 'message', 'TextOperations-t1', 'text_input'),
      edge('TextOperations-t1', 'dataframe', 'DataFrameOperations-f1', 'df'),
      edge('DataFrameOperations-f1', 'output', 'Operations-o1', 'df_input'),
      edge('Operations-o1', 'dataframe', 'ChatOutput-out01', 'input_value'),
    ],
  );
  const result = await runFlow(server, body, { input_value: CSV });
  t.equal(result.status, 200, JSON.stringify(result.body));
  t.equal(result.body.outputs[0].outputs[0].results.message.text, '| name | age | city |\n|:---|:---|:---|\n| Émilie | 30 | Paris |');

  const jsonOnly = flow('Old JSON node', [node('DataOperations-old', 'DataOperations', { operations: 'ignored', operation: [{ name: 'Append or Update' }], append_update_data: { added: true } })], []);
  const old = await runFlow(server, jsonOnly, { output_component: 'DataOperations-old' });
  t.same(old.body.outputs[0].outputs[0].outputs.data_output.message, { added: true }, 'an older DataOperations node (JSON only, no input type) runs unchanged');
});

t.test('/api/v1/run: a failing operation is reported with the node and the operation', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = flow(
    'Bad regex',
    [node('ChatInput-in001', 'ChatInput'), node('DataOperations-x1', 'DataOperations', { input_type: 'Text', operation: 'Text Extract', extract_pattern: '(unclosed' }), node('ChatOutput-out01', 'ChatOutput')],
    [edge('ChatInput-in001', 'message', 'DataOperations-x1', 'text_input'), edge('DataOperations-x1', 'message', 'ChatOutput-out01', 'input_value')],
  );
  const result = await runFlow(server, body, { input_value: 'text' });
  t.equal(result.status, 500);
  t.match(JSON.stringify(result.body), /DataOperations-x1.*Text Extract: invalid regex pattern '\(unclosed' \(extract_pattern\)/);

  const mismatch = flow('Wrong type', [node('DataOperations-x2', 'DataOperations', { input_type: 'JSON', operation: 'Sort' })], []);
  const wrong = await runFlow(server, mismatch, {});
  t.equal(wrong.status, 500);
  t.match(JSON.stringify(wrong.body), /Operation \\"Sort\\" is a Table operation, but the input type is JSON/);
});

t.test('/api/v2/workflows: chained instances with data, df, left_dataframe and right_dataframe as flat JSON inputs', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const v2 = async (body: Record<string, unknown>, inputs: Record<string, unknown>) => {
    const created = await createFlow(server, body);
    const res = await server.request('/api/v2/workflows', { method: 'POST', json: { flow_id: created.id, inputs } });
    t.equal(res.status, 200);
    return res.json();
  };

  const json = flow(
    'JSON chain v2',
    [node('DataOperations-select', 'DataOperations', { operation: 'Select Keys', select_keys_input: ['items'] }), node('DataOperations-jq', 'DataOperations', { operation: 'JQ Expression', query: '[.items[] | select(.stock > 0) | .name]' })],
    [edge('DataOperations-select', 'data_output', 'DataOperations-jq', 'data')],
  );
  const data = { items: [{ name: 'pen', stock: 3 }, { name: 'ink', stock: 0 }, { name: 'pad', stock: 7 }], shop: 'x' };
  const selected = await v2(json, { 'DataOperations-select.data': data });
  t.equal(selected.status, 'completed', JSON.stringify(selected.errors));
  t.match(selected.outputs['DataOperations-jq'], { type: 'data', content: { result: ['pen', 'pad'] } });

  const tables = flow(
    'Merge chain v2',
    [node('DataOperations-merge', 'DataOperations', { input_type: 'Table', operation: 'Merge', merge_on_column: 'id' }), node('DataOperations-sort', 'DataOperations', { input_type: 'Table', operation: 'Sort', column_name: 'id' })],
    [edge('DataOperations-merge', 'dataframe', 'DataOperations-sort', 'df')],
  );
  const merged = await v2(tables, {
    'DataOperations-merge.left_dataframe': [{ id: 2, a: 'y' }, { id: 1, a: 'x' }],
    'DataOperations-merge.right_dataframe': [{ id: 1, b: 'w' }, { id: 2, b: 'z' }],
    'DataOperations-merge.merge_how': 'inner',
  });
  t.match(merged.outputs['DataOperations-sort'], { type: 'dataframe', content: [{ id: 1, a: 'x', b: 'w' }, { id: 2, a: 'y', b: 'z' }] });

  const single = flow('Table v2', [node('DataOperations-head', 'DataOperations', { input_type: 'Table', operation: 'Head' })], []);
  const head = await v2(single, { 'DataOperations-head.df': [{ n: 1 }, { n: 2 }, { n: 3 }], 'DataOperations-head.num_rows': '2' });
  t.same(head.outputs['DataOperations-head'].content, [{ n: 1 }, { n: 2 }], 'df as rows; num_rows cast from a string');

  const text = flow('Text v2', [node('DataOperations-wc', 'DataOperations', { input_type: 'Text', operation: 'Word Count' })], []);
  const counted = await v2(text, { 'DataOperations-wc.text_input': 'a b a\nc' });
  t.match(counted.outputs['DataOperations-wc'], { type: 'data', content: { word_count: 4, unique_words: 3, line_count: 2 } });

  const bad = await v2(single, { 'DataOperations-head.df': [{ n: 1 }], 'DataOperations-head.num_rows': -1 });
  t.equal(bad.status, 'failed');
  t.match(bad.errors[0], { code: 'EXECUTION_ERROR', details: { component_id: 'DataOperations-head' } });
  t.match(bad.errors[0].error, /Head/);
});
