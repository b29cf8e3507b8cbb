import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { webhook } from '../src/components/data/webhook.js';
import { typeConverter } from '../src/components/processing/type-converter.js';
import { createData } from '../src/values/data.js';
import { createMessage } from '../src/values/message.js';
import { createTable } from '../src/values/table.js';
import { runComponent } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

const convert = async (input: unknown, output: 'message_output' | 'data_output' | 'dataframe_output', params: Record<string, unknown> = {}) =>
  (await runComponent(typeConverter, params, { edges: { input_data: input }, requested: [output] }))[output];

t.test('Type Convert: Message, Data and Table into one another', async (t) => {
  const table = createTable([{ a: 1 }, { a: 2 }]);
  t.equal((await convert(createData({ text: 'hi', x: 1 }), 'message_output')).text, 'hi');
  t.equal((await convert(createData({ x: 1 }), 'message_output')).text, '{"x":1}', 'a Data without text prints as JSON');
  t.equal((await convert(table, 'message_output')).text, '| a |\n|:---|\n| 1 |\n| 2 |');
  t.same((await convert(createMessage({ text: 'hello' }), 'data_output')).data, { text: 'hello' });
  t.same((await convert(table, 'data_output')).data, { results: [{ a: 1 }, { a: 2 }] });
  t.same((await convert(createMessage({ text: 'hello' }), 'dataframe_output')).rows, [{ text: 'hello' }]);
  t.same((await convert(createData({ items: [{ k: 1 }, { k: 2 }] }), 'dataframe_output')).rows, [{ k: 1 }, { k: 2 }], 'a Data holding one list of objects is those rows');
  t.same((await convert(createData({ k: 1, j: 2 }), 'dataframe_output')).rows, [{ k: 1, j: 2 }]);
  t.equal(await convert(table, 'dataframe_output'), table);
});

t.test('auto parse reads JSON and CSV out of text', async (t) => {
  const parse = (text: string, output: 'data_output' | 'dataframe_output') => convert(createMessage({ text }), output, { auto_parse: true });
  t.same((await parse('{"a": 1, "b": [1, 2]}', 'data_output')).data, { a: 1, b: [1, 2] });
  t.same((await parse('[{"a": 1}, {"a": 2}]', 'data_output')).data, { records: [{ a: 1 }, { a: 2 }] });
  t.same((await parse('name,score\nada,9\nalan,8.5', 'dataframe_output')).rows, [
    { name: 'ada', score: 9 },
    { name: 'alan', score: 8.5 },
  ]);
  t.same((await parse('just words, nothing more', 'data_output')).data, { text: 'just words, nothing more' }, 'a single line is not CSV');
  t.same((await convert(createMessage({ text: '{"a": 1}' }), 'data_output')).data, { text: '{"a": 1}' }, 'without auto parse the text stays text');
});

t.test('with every output asked for, only the selected type is computed; bad input is an error', async (t) => {
  const all = await runComponent(typeConverter, { output_type: 'Data' }, { edges: { input_data: createMessage({ text: 'x' }) } });
  t.same(Object.keys(all), ['data_output']);
  await t.rejects(runComponent(typeConverter, {}), { message: /Field "Input" \(input_data\): no input/ });
  await t.rejects(runComponent(typeConverter, { output_type: 'XML' }, { edges: { input_data: 'x' } }), { message: /Field "Output Type" \(output_type\)/ });
});

t.test('Webhook: the body as Data', async (t) => {
  const cases: [body: unknown, expected: Record<string, unknown>][] = [
    ['{"event": "push", "repo": {"name": "x"}}', { event: 'push', repo: { name: 'x' } }],
    [{ already: 'an object' }, { already: 'an object' }],
    ['not json at all', { payload: 'not json at all' }],
    ['[1, 2, 3]', { payload: [1, 2, 3] }],
    ['42', { payload: 42 }],
    ['', {}],
    ['   ', {}],
  ];
  for (const [data, expected] of cases) t.same((await runComponent(webhook, { data })).output_data.data, expected, JSON.stringify(data));
});

t.test('flows through /api/v1/run: a webhook payload parsed, and a chat text converted', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const hooked = await createFlow(
    server,
    flow(
      'Hooked',
      [
        node('Webhook-w0001', 'Webhook', {}, 'Webhook'),
        node('ParserComponent-p0001', 'ParserComponent', { pattern: '{event} on {repo[name]}' }, 'Parser'),
        node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output'),
      ],
      [edge('Webhook-w0001', 'output_data', 'ParserComponent-p0001', 'input_data'), edge('ParserComponent-p0001', 'parsed_text', 'ChatOutput-out01', 'input_value')],
    ),
  );
  const reply = await client.flow(hooked.id).run('', { tweaks: { 'Webhook-w0001': { data: '{"event": "push", "repo": {"name": "flowsvc"}}' } } });
  t.equal(reply.chatOutputText(), 'push on flowsvc');

  const converted = await createFlow(
    server,
    flow(
      'Converted',
      [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node('TypeConverterComponent-t0001', 'TypeConverterComponent', { output_type: 'Data', auto_parse: true }, 'Type Convert'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
      [edge('ChatInput-in001', 'message', 'TypeConverterComponent-t0001', 'input_data'), edge('TypeConverterComponent-t0001', 'data_output', 'ChatOutput-out01', 'input_value')],
    ),
  );
  t.equal((await client.flow(converted.id).run('{"ok": true}')).chatOutputText(), '```json\n{\n  "ok": true\n}\n```');
});
