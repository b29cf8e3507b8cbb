import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { parser } from '../src/components/processing/parser.js';
import { createData } from '../src/values/data.js';
import { createMessage } from '../src/values/message.js';
import { createTable } from '../src/values/table.js';
import { runComponent } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';
import { starterSubflow, starterValues } from './support/starter-nodes.js';

const parse = async (input: unknown, params: Record<string, unknown> = {}) => (await runComponent(parser, params, { edges: { input_data: input } })).parsed_text.text as string;

const people = createTable([
  { name: 'Ada', age: 36 },
  { name: 'Alan', age: 41.5 },
]);

t.test('Parser mode: a template per table row, or over a Data', async (t) => {
  const cases: [input: unknown, params: Record<string, unknown>, expected: string][] = [
    [people, { pattern: '{name} is {age}' }, 'Ada is 36\nAlan is 41.5'],
    [people, { pattern: '{name}', sep: ', ' }, 'Ada, Alan'],
    [people, { pattern: '{age:.2f}|{name:>5}' }, '36.00|  Ada\n41.50| Alan'],
    [createTable([]), { pattern: '{x}' }, ''],
    [createData({ text: 'hello', lang: 'en' }), {}, 'Text: hello'],
    [createData({ text: 'hello' }), { pattern: '{text} ({lang})' }, 'hello ()'],
    [createData({ nested: { deep: [10, 20] }, ok: true, none: null }), { pattern: '{nested[deep][1]} {ok} {none}' }, '20 True None'],
    [[createData({ text: 'a' }), createData({ text: 'b' })], { pattern: '<{text}>' }, '<a>\n<b>'],
    [createMessage({ text: 'from a message', sender: 'User' }), { pattern: '{sender}: {text}' }, 'User: from a message'],
    [createData({ a: 1 }), { pattern: '{{literal}} {a}' }, '{literal} 1'],
  ];
  for (const [input, params, expected] of cases) t.equal(await parse(input, params), expected, JSON.stringify(params));
});

t.test('Stringify mode prints the input as Chat Output would', async (t) => {
  t.equal(await parse(people, { mode: 'Stringify' }), '| name | age |\n|:---|:---|\n| Ada | 36 |\n| Alan | 41.5 |');
  t.equal(await parse(createData({ a: 1 }), { mode: 'Stringify' }), '```json\n{\n  "a": 1\n}\n```');
});

t.test('errors name the field and say what is wrong', async (t) => {
  await t.rejects(parse(people, { pattern: '{name} {missing}' }), { name: 'ComponentError', message: /Field "Template" \(pattern\): row 0 has no column "missing"; the columns are "name", "age"/ });
  await t.rejects(parse(people, { pattern: '{name' }), { message: /Field "Template" \(pattern\): Single '\{'/ });
  await t.rejects(parse(people, { pattern: '{name:d}' }), { message: /Unknown format code 'd'/ });
  await t.rejects(parse(undefined), { message: /Field "Data or DataFrame" \(input_data\): no input/ });
  await t.rejects(parse('just a string'), { message: /expected a DataFrame or a Data, got string/ });
  await t.rejects(parse(people, { mode: 'Tabulate' }), { message: /Field "Mode" \(mode\)/ });
});

t.test('the Financial Report Parser node through /api/v1/run, fed a table by Type Convert', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = starterSubflow('Financial Report Parser', ['ChatInput-AT9yi', 'ParserComponent-FWDxd', 'ChatOutput-XvCBo'], {
    nodes: [node('TypeConverterComponent-tc001', 'TypeConverterComponent', { output_type: 'DataFrame', auto_parse: true }, 'Type Convert')],
    edges: [edge('ChatInput-AT9yi', 'message', 'TypeConverterComponent-tc001', 'input_data'), edge('TypeConverterComponent-tc001', 'dataframe_output', 'ParserComponent-FWDxd', 'input_data')],
  });
  const created = await createFlow(server, body);
  const csv = 'EBITDA,NET_INCOME,GROSS_PROFIT\n900,400,1200\n950,410,1300';
  const reply = await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run(csv);
  t.equal(starterValues('Financial Report Parser', 'ParserComponent-FWDxd').pattern, 'EBITDA: {EBITDA}  ,  Net Income: {NET_INCOME} , GROSS_PROFIT: {GROSS_PROFIT}');
  t.equal(reply.chatOutputText(), 'EBITDA: 900  ,  Net Income: 400 , GROSS_PROFIT: 1200\nEBITDA: 950  ,  Net Income: 410 , GROSS_PROFIT: 1300');

  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'a,b\n1,2' } });
  t.equal(res.status, 500, 'rows without the template columns fail the run');
  t.match(JSON.stringify(await res.json()), /ParserComponent-FWDxd.*row 0 has no column \\"EBITDA\\"/);
});
