import t from 'tap';
import { createData } from '../src/values/data.js';
import { createMessage } from '../src/values/message.js';
import { createTable } from '../src/values/table.js';
import { jsonOf, messageText, runOperation } from './support/data-operations.js';

const op = (operation: string, data: unknown, params: Record<string, unknown> = {}) => jsonOf({ input_type: 'JSON', operation, ...params }, { edges: { data } });

t.test('Select Keys keeps the named top-level keys, in the data order', async (t) => {
  const data = createData({ a: 1, b: { x: 2 }, c: [3], 名前: 'ü' });
  t.same(await op('Select Keys', data, { select_keys_input: ['c', 'a'] }), { a: 1, c: [3] });
  t.same(await op('Select Keys', data, { select_keys_input: ['名前'] }), { 名前: 'ü' });
  t.same(await op('Select Keys', data, { select_keys_input: [] }), {});
  t.same(await op('Select Keys', data, { select_keys_input: 'b' }), { b: { x: 2 } }, 'a single key as a string');
  t.same(await op('Select Keys', createData({ data: { inner: true }, other: 1 }), { select_keys_input: ['data'] }), { inner: true }, '["data"] selects the inner object');
  await t.rejects(op('Select Keys', data, { select_keys_input: ['a', 'zz', 'yy'] }), { name: 'ComponentError', message: 'Select Keys: key(s) "zz", "yy" not found (select_keys_input). Available keys: ["a","b","c","名前"]' });
  await t.rejects(op('Select Keys', undefined, { select_keys_input: ['a'] }), { message: /Available keys: \[\]/ }, 'no input: no keys');
  await t.rejects(op('Select Keys', [createData({ a: 1 }), createData({ a: 2 })], { select_keys_input: ['a'] }), { message: /Select Keys operation is not supported for multiple JSON inputs \(data got 2\)/ });
});

t.test('Literal Eval turns strings holding JSON or Python literals into values', async (t) => {
  const data = createData({
    dict: "{'a': (1, 2), 'b': None}",
    list: "[1, 'two', True]",
    quoted: "'quoted'",
    hex: '0x1F',
    underscores: '1_000',
    parens: '(1)',
    tuple: '(1,)',
    set: '{1, 2}',
    empty_set: 'set()',
    raw: "r'\\d+'",
    adjacent: "'a' 'b'",
    keys: "{True: 1, None: 2, 3: 'x'}",
    negative: '-5',
    exponent: '+3.5e2',
    escapes: "'\\x41\\u00e9\\n'",
    padded: '  42  ',
    json_object: '{"x": [1, {"y": null}]}',
    json_true: 'true',
    json_null: 'null',
    leading_zero: '01234',
    dotted: '1.2.3',
    complex: '1j',
    bytes: "b'x'",
    words: 'hello world',
    empty: '',
    number: 7,
    nested: { inner: '[1, 2]', list: ['True', 'x'] },
  });
  t.same(await op('Literal Eval', data), {
    dict: { a: [1, 2], b: null },
    list: [1, 'two', true],
    quoted: 'quoted',
    hex: 31,
    underscores: 1000,
    parens: 1,
    tuple: [1],
    set: [1, 2],
    empty_set: [],
    raw: '\\d+',
    adjacent: 'ab',
    keys: { true: 1, null: 2, 3: 'x' },
    negative: -5,
    exponent: 350,
    escapes: 'Aé\n',
    padded: 42,
    json_object: { x: [1, { y: null }] },
    json_true: true,
    json_null: null,
    leading_zero: '01234',
    dotted: '1.2.3',
    complex: '1j',
    bytes: "b'x'",
    words: 'hello world',
    empty: '',
    number: 7,
    nested: { inner: [1, 2], list: [true, 'x'] },
  });
  t.same(await op('Literal Eval', undefined), {}, 'no input');
});

t.test('Combine merges several inputs; a key seen twice collects its values', async (t) => {
  t.same(await op('Combine', [createData({ a: 1, l: [1] }), createData({ a: 2, l: 2, b: 3 }), createData({ a: [4, 5] })]), { a: [1, 2, 4, 5], l: [1, 2], b: 3 });
  t.same(await op('Combine', [createData({ only: 'one' })]), { only: 'one' });
  t.same(await op('Combine', []), {});
  t.same(await op('Combine', [createMessage({ text: 'hi', sender: 'User' }), { extra: true }]), { text: 'hi', sender: 'User', sender_name: null, session_id: null, extra: true }, 'a Message gives its fields; an object is JSON');
  const first = createData({ l: [1] });
  await op('Combine', [first, createData({ l: [2] })]);
  t.same(first.data, { l: [1] }, 'inputs are not modified');
});

t.test('Filter Values keeps list items that match every condition', async (t) => {
  const people = { people: [{ name: 'Ada', age: 36 }, { name: 'alan', age: '41' }, { name: 'Grace', age: 85 }, { nick: 'x' }, 'not an object'], total: 5 };
  const filter = (operator: string, values: Record<string, unknown>, keys: string[] = ['people']) => op('Filter Values', createData(people), { filter_key: keys, operator, filter_values: values });
  const names = async (operator: string, values: Record<string, unknown>) => ((await filter(operator, values)) as { people: { name: string }[] }).people.map((p) => p.name);
  t.same(await names('equals', { name: 'Ada' }), ['Ada']);
  t.same(await names('equals', { age: '36' }), ['Ada'], 'numbers compare as numbers');
  t.same(await names('equals', { age: 41 }), ['alan'], 'a numeric string item equals a number');
  t.same(await names('not equals', { name: 'Ada' }), ['alan', 'Grace']);
  t.same(await names('contains', { name: 'a' }), ['Ada', 'alan', 'Grace']);
  t.same(await names('starts with', { name: 'A' }), ['Ada']);
  t.same(await names('ends with', { name: 'ce' }), ['Grace']);
  t.same(await names('greater than', { age: '40' }), ['alan', 'Grace']);
  t.same(await names('less than', { age: 41 }), ['Ada']);
  t.same(await names('greater than', { name: 'B' }), ['alan', 'Grace'], 'text compares as text');
  t.same(await names('equals', { name: 'Ada', age: 99 }), [], 'conditions combine with AND');
  t.equal(((await filter('equals', { name: null })) as { people: unknown[] }).people.length, 5, 'a null condition is ignored');
  t.same(((await filter('equals', { name: 'Ada' })) as { total: number }).total, 5, 'other keys are kept');
  t.same(await filter('equals', { name: 'Ada' }, []), people, 'no filter key: unchanged');
  await t.rejects(filter('equals', { name: 'Ada' }, ['persons']), { name: 'ComponentError', message: 'Filter Values: filter key "persons" not found (filter_key). Available keys: ["people","total"]' });
  await t.rejects(filter('equals', { name: 'Ada' }, ['total']), { message: 'Filter Values: filter key "total" (filter_key) is not a list' });
  await t.rejects(filter('matches', { name: 'Ada' }), { message: /Filter Values: unknown operator "matches" \(operator\)/ });
  await t.rejects(op('Filter Values', createData(people), { filter_key: ['people'], filter_values: '[not json' }), { message: /Filter Values/ });
});

t.test('Append or Update, Remove Keys and Rename Keys', async (t) => {
  const data = createData({ a: 1, b: { a: 2, c: [{ a: 3, d: 4 }] } });
  t.same(await op('Append or Update', data, { append_update_data: { a: 'new', z: [1] } }), { a: 'new', b: { a: 2, c: [{ a: 3, d: 4 }] }, z: [1] });
  t.same(await op('Append or Update', data), { a: 1, b: { a: 2, c: [{ a: 3, d: 4 }] }, key: 'value' }, "Langflow's default adds key: value");
  t.same(await op('Append or Update', undefined, { append_update_data: '{"from": "json text"}' }), { from: 'json text' });
  t.same(await op('Remove Keys', data, { remove_keys_input: ['a'] }), { b: { c: [{ d: 4 }] } }, 'at every depth, inside lists too');
  t.same(await op('Remove Keys', data, { remove_keys_input: ['missing'] }), data.data);
  t.same(await op('Rename Keys', data, { rename_keys_input: { a: 'α' } }), { α: 1, b: { α: 2, c: [{ α: 3, d: 4 }] } });
  t.same(await op('Rename Keys', createData({ old_key: 1 })), { new_key: 1 }, "Langflow's default renames old_key");
  await t.rejects(op('Rename Keys', data, { rename_keys_input: { a: 5 } }), { name: 'ComponentError', message: 'Rename Keys: the new name for "a" must be a non-empty string (rename_keys_input), got 5' });
  t.same(data.data, { a: 1, b: { a: 2, c: [{ a: 3, d: 4 }] } }, 'the input is not modified');
});

t.test('Path Selection walks dot paths with [n] indexes', async (t) => {
  const data = createData({ user: { name: 'Ada', tags: ['x', 'y', 'z'], 'a.b': { c: 1 } }, items: [{ id: 1, price: 9.5 }, { id: 2, price: 20 }], '': 'empty' });
  const path = (selected_key: string, input: unknown = data) => op('Path Selection', input, { selected_key });
  t.same(await path('.user.name'), { result: 'Ada' });
  t.same(await path('.user'), data.data.user, 'an object becomes the JSON itself');
  t.same(await path('.user.tags[1]'), { result: 'y' });
  t.same(await path('.user.tags[-1]'), { result: 'z' });
  t.same(await path('.items[0]'), { id: 1, price: 9.5 });
  t.same(await path('.items.[1].id'), { result: 2 });
  t.same(await path('.user."a.b".c'), { result: 1 });
  t.same(await path('.user["a.b"]'), { c: 1 });
  t.same(await path('.'), data.data);
  t.same(await path('[.items[] | .price] | add'), { result: 29.5 }, 'anything else is a jq program');
  await t.rejects(path('.user.email'), { name: 'ComponentError', message: 'Path Selection: key "email" not found at ".user" (selected_key ".user.email"). Available keys: ["name","tags","a.b"]' });
  await t.rejects(path('.nope'), { message: /key "nope" not found at the top level .*Available keys: \["user","items",""\]/ });
  await t.rejects(path('.items[5]'), { message: 'Path Selection: index [5] is out of range at ".items", which has 2 item(s) (selected_key ".items[5]")' });
  await t.rejects(path('.user.name[0]'), { message: /".user.name" is a string, not a list/ });
  await t.rejects(path('.items.id'), { message: /".items" is a list, so it has no key "id"/ });
  await t.rejects(path('   '), { message: /Path Selection: choose a path in selected_key/ });
  await t.rejects(op('Path Selection', undefined, { selected_key: '.a' }), { message: 'Path Selection needs a JSON input (data)' });
  await t.rejects(path('.items[] | select(.price > 100)'), { message: /Path Selection: the path ".*" \(selected_key\) selected nothing/ });
});

t.test('JQ Expression runs jq-wasm; several results become a list', async (t) => {
  const data = createData({ items: [{ id: 1, name: 'Ünïcode', price: 9.5 }, { id: 2, name: 'b', price: 20 }], meta: { count: 2 } });
  const jq = (query: string, input: unknown = data) => op('JQ Expression', input, { query });
  t.same(await jq('.meta'), { count: 2 }, 'an object result is the JSON');
  t.same(await jq('.items[] | .id'), { result: [1, 2] }, 'several results: a list');
  t.same(await jq('[.items[] | .id]'), { result: [1, 2] }, 'one list result');
  t.same(await jq('.items[0].name'), { result: 'Ünïcode' });
  t.same(await jq('.items | map(select(.price > 10)) | length'), { result: 1 });
  t.same(await jq('"a\\nb"'), { result: 'a\nb' }, 'newlines inside a result do not split results');
  t.same(await jq('.items[] | {n: .name}'), { result: [{ n: 'Ünïcode' }, { n: 'b' }] });
  t.same(await jq('.', createData({})), {}, 'an empty object');
  t.same(await jq('.text', createMessage({ text: 'hi' })), { result: 'hi' }, 'over a Message');
  await t.rejects(jq('  '), { name: 'ComponentError', message: 'JQ Expression: the query (query) is required and cannot be blank' });
  await t.rejects(jq('.missing'), { message: /JQ Expression: the query ".missing" \(query\) returned null/ });
  await t.rejects(jq('empty'), { message: 'JQ Expression: no result from the query "empty" (query)' });
  await t.rejects(jq('.items[ '), { message: /JQ Expression: JQ Query error in query "\.items\[ ": error: syntax error/ });
  await t.rejects(jq('.meta.count | .x'), { message: 'JQ Expression: JQ Query error in query ".meta.count | .x": error: Cannot index number with string "x"' });
  await t.rejects(jq('.', [createData({ a: 1 }), createData({ b: 2 })]), { message: /JQ Expression operation is not supported for multiple JSON inputs/ });

  const many = createData({ rows: Array.from({ length: 20_000 }, (_, i) => ({ i, label: `row ${i}` })) });
  t.same(await jq('.rows | map(.i) | add', many), { result: 199990000 }, 'a larger document');
  const repeated = await Promise.all(Array.from({ length: 400 }, (_, i) => jq(`.items[${i % 2}].id`)));
  t.same(repeated.map((r) => (r as { result: number }).result), Array.from({ length: 400 }, (_, i) => (i % 2) + 1), 'hundreds of queries in a row (jq-wasm alone breaks after ~300)');
});

t.test('JSON inputs: Data, Message, objects, JSON text, tables', async (t) => {
  t.same(await op('Select Keys', { a: 1, b: 2 }, { select_keys_input: ['a'] }), { a: 1 }, 'a plain object');
  t.same(await op('Select Keys', '{"a": 1, "b": 2}', { select_keys_input: ['b'] }), { b: 2 }, 'JSON text');
  t.same(await op('Select Keys', createMessage({ text: 'hello', sender: 'User' }), { select_keys_input: ['text'] }), { text: 'hello' }, 'a Message');
  t.same(await op('Select Keys', 'plain words', { select_keys_input: ['text'] }), { text: 'plain words' }, 'other text is the text key');
  t.same(await op('Combine', createTable([{ a: 1 }, { a: 2 }])), { a: [1, 2] }, 'a table gives one JSON per row');
  t.same(await jsonOf({ operation: 'Select Keys', select_keys_input: ['k'], data: { k: 'from the node' } }), { k: 'from the node' }, 'given in the node itself');
  t.equal(await messageText({ operation: 'Select Keys', select_keys_input: ['a'], data: { a: 'é' } }, { requested: ['message'] }), '{\n  "a": "é"\n}', 'the Message output is indented JSON');
  const outputs = await runOperation({ operation: 'Append or Update' });
  t.same(Object.keys(outputs), ['data_output'], 'JSON operations give JSON');
  t.same((await runOperation({ operation: 'Select Keys', select_keys_input: ['a'], data: { a: 1 } }, { requested: ['data', 'dataframe'] })).dataframe.rows, [{ a: 1 }], 'the older output names still answer');
});
