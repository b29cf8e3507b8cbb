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
