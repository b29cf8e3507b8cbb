import t from 'tap';
import { createData } from '../src/values/data.js';
import { createMessage } from '../src/values/message.js';
import { createTable } from '../src/values/table.js';
import { rowsOf, runOperation } from './support/data-operations.js';

const people = createTable([
  { name: 'Ada', age: 36, city: 'London' },
  { name: 'Alan', age: 41, city: 'Wilmslow' },
  { name: 'Grace', age: 85, city: null },
  { name: 'Ada', age: null, city: 'Paris' },
  { name: 'Émilie', age: 30, city: 'Paris' },
]);
const table = (operation: string, params: Record<string, unknown> = {}, df: unknown = people) => rowsOf({ input_type: 'Table', operation, ...params }, { edges: { df: [df] } });
const column = async (operation: string, params: Record<string, unknown>, name = 'name', df: unknown = people) => (await table(operation, params, df)).map((row) => row[name]);

t.test('Add Column, Drop Column, Rename Column and Select Columns', async (t) => {
  t.same(await column('Add Column', { new_column_name: 'team', new_column_value: 'Z' }, 'team'), ['Z', 'Z', 'Z', 'Z', 'Z']);
  t.same(Object.keys((await table('Add Column', { new_column_name: 'age', new_column_value: 'n/a' }))[0]), ['name', 'age', 'city'], 'an existing column is overwritten in place');
  await t.rejects(table('Add Column', { new_column_value: 'x' }), { name: 'ComponentError', message: 'Add Column: the new column needs a name (new_column_name)' });

  t.same((await table('Drop Column', { column_name: 'city' }))[0], { name: 'Ada', age: 36 });
  await t.rejects(table('Drop Column', { column_name: 'town' }), { name: 'ComponentError', message: 'Drop Column: column "town" (column_name) not found in the table. Available columns: ["name","age","city"]' });
  await t.rejects(table('Drop Column', {}), { message: 'Drop Column: choose a column (column_name). Available columns: ["name","age","city"]' });

  t.same((await table('Rename Column', { column_name: 'city', new_column_name: 'ville' }))[1], { name: 'Alan', age: 41, ville: 'Wilmslow' });
  t.same((await table('Rename Column', { column_name: 'city', new_column_name: 'city' }))[1], people.rows[1], 'renaming to itself changes nothing');
  await t.rejects(table('Rename Column', { column_name: 'city', new_column_name: 'name' }), { message: 'Rename Column: a column "name" (new_column_name) already exists' });
  await t.rejects(table('Rename Column', { column_name: 'city' }), { message: /Rename Column: the new name \(new_column_name\) must not be empty/ });
  await t.rejects(table('Rename Column', { column_name: 'nope', new_column_name: 'x' }), { message: /Rename Column: column "nope" \(column_name\) not found/ });

  t.same((await table('Select Columns', { columns_to_select: [' city ', 'name'] }))[0], { city: 'London', name: 'Ada' }, 'in the order given, names trimmed');
  await t.rejects(table('Select Columns', { columns_to_select: ['name', 'town', 'zip'] }), { message: 'Select Columns: column(s) "town", "zip" (columns_to_select) not found. Available columns: ["name","age","city"]' });
});

t.test('Filter: all eight operators; numbers compare as numbers in a numeric column', async (t) => {
  const names = (column_name: string, filter_operator: string, filter_value: string, df: unknown = people) => column('Filter', { column_name, filter_operator, filter_value }, 'name', df);
  t.same(await names('age', 'equals', '36'), ['Ada'], 'the text "36" equals the number 36');
  t.same(await names('age', 'equals', '36.0'), ['Ada']);
  t.same(await names('age', 'not equals', '36'), ['Alan', 'Grace', 'Ada', 'Émilie'], 'empty cells are not equal');
  t.same(await names('age', 'greater than', '40'), ['Alan', 'Grace']);
  t.same(await names('age', 'less than', '40'), ['Ada', 'Émilie'], 'empty cells are neither greater nor less');
  t.same(await names('name', 'equals', 'Ada'), ['Ada', 'Ada']);
  t.same(await names('name', 'contains', 'a'), ['Ada', 'Alan', 'Grace', 'Ada']);
  t.same(await names('name', 'contains', 'A.a'), [], 'contains is a plain substring test, not a regex');
  t.same(await names('name', 'not contains', 'a'), ['Émilie']);
  t.same(await names('city', 'not contains', 'o'), ['Grace', 'Ada', 'Émilie'], 'an empty cell does not contain anything');
  t.same(await names('name', 'starts with', 'É'), ['Émilie']);
  t.same(await names('city', 'ends with', 'is'), ['Ada', 'Émilie']);
  t.same(await names('name', 'greater than', 'B'), ['Grace', 'Émilie'], 'text compares as text');
  t.same(await names('name', 'equals', 'nobody'), []);
  t.same(await rowsOf({ operation: 'Filter Rows', column_name: 'age', filter_value: '85' }, { edges: { df: [people] } }), [people.rows[2]], 'the older name Filter Rows');

  const codes = createTable([{ code: '030' }, { code: '30' }, { code: 30 }, { code: true }]);
  t.same(await column('Filter', { column_name: 'code', filter_value: '30' }, 'code', codes), ['30', 30], 'a mixed column compares text forms exactly ("030" is not 30)');
  t.same(await column('Filter', { column_name: 'code', filter_value: 'true' }, 'code', codes), [true]);
  t.same(await column('Filter', { column_name: 'v', filter_operator: 'greater than', filter_value: '9' }, 'v', createTable([{ v: '10' }, { v: '8' }])), ['10'], 'numeric text compares as numbers');
  await t.rejects(names('age', 'between', '1'), { name: 'ComponentError', message: /Filter: unknown operator "between" \(filter_operator\)/ });
  await t.rejects(names('years', 'equals', '1'), { message: /Filter: column "years" \(column_name\) not found in the table\. Available columns: \["name","age","city"\]/ });
});

t.test('Head, Tail, Sort, Replace Value and Drop Duplicates', async (t) => {
  t.same(await column('Head', { num_rows: 2 }), ['Ada', 'Alan']);
  t.same(await column('Head', {}), ['Ada', 'Alan', 'Grace', 'Ada', 'Émilie'], 'default 5');
  t.same(await column('Head', { num_rows: 0 }), []);
  t.same(await column('Tail', { num_rows: 2 }), ['Ada', 'Émilie']);
  t.same(await column('Tail', { num_rows: 0 }), []);
  t.same(await column('Tail', { num_rows: 50 }), ['Ada', 'Alan', 'Grace', 'Ada', 'Émilie']);
  t.same(await column('Head Rows', { num_rows: 1 }), ['Ada'], 'the older names Head Rows and Tail Rows');
  t.same(await column('Tail Rows', { num_rows: 1 }), ['Émilie']);
  await t.rejects(table('Head', { num_rows: -1 }), { name: 'ComponentError', message: 'Head: Number of Rows (num_rows) must be non-negative, got -1' });
  await t.rejects(table('Tail', { num_rows: -3 }), { message: 'Tail: Number of Rows (num_rows) must be non-negative, got -3' });

  t.same(await column('Sort', { column_name: 'age' }, 'age'), [30, 36, 41, 85, null], 'empty cells last');
  t.same(await column('Sort', { column_name: 'age', ascending: false }, 'age'), [85, 41, 36, 30, null], 'empty cells last when descending too');
  t.same(await column('Sort', { column_name: 'name' }), ['Ada', 'Ada', 'Alan', 'Grace', 'Émilie']);
  t.same(await column('Sort', { column_name: 'name' }, 'city'), ['London', 'Paris', 'Wilmslow', null, 'Paris'], 'ties keep their order');
  await t.rejects(table('Sort', { column_name: 'Age' }), { message: /Sort: column "Age" \(column_name\) not found/ });

  t.same(await column('Replace Value', { column_name: 'city', replace_value: 'Paris', replacement_value: 'Lyon' }, 'city'), ['London', 'Wilmslow', null, 'Lyon', 'Lyon']);
  t.same(await column('Replace Value', { column_name: 'age', replace_value: '36', replacement_value: 'thirty-six' }, 'age'), ['thirty-six', 41, 85, null, 30], 'a numeric column matches the number');
  t.same(await column('Replace Value', { column_name: 'city', replace_value: 'Par', replacement_value: 'x' }, 'city'), ['London', 'Wilmslow', null, 'Paris', 'Paris'], 'whole cells only');
  await t.rejects(table('Replace Value', { column_name: 'town', replace_value: 'a' }), { message: /Replace Value: column "town" \(column_name\) not found/ });

  t.same(await table('Drop Duplicates', { column_name: 'name' }), [people.rows[0], people.rows[1], people.rows[2], people.rows[4]], 'the first occurrence stays, with all its columns');
  t.same(await column('Drop Duplicates', { column_name: 'city' }, 'city'), ['London', 'Wilmslow', null, 'Paris'], 'empty cells count as one value');
  await t.rejects(table('Drop Duplicates', { column_name: '' }), { message: /Drop Duplicates: choose a column \(column_name\)/ });
});

t.test('Concatenate stacks tables; Merge joins them on a key', async (t) => {
  const a = createTable([{ id: 1, x: 'a' }]);
  const b = createTable([{ id: 2, y: 'b' }, { id: 3, x: 'c', y: 'd' }]);
  t.same(await rowsOf({ input_type: 'Table', operation: 'Concatenate' }, { edges: { df: [a, b] } }), [{ id: 1, x: 'a', y: null }, { id: 2, x: null, y: 'b' }, { id: 3, x: 'c', y: 'd' }], 'the union of the columns, empty cells null');
  t.same(await rowsOf({ operation: 'Concatenate' }, { edges: { df: [a] } }), a.rows, 'one table is returned as is');
  t.same(await rowsOf({ operation: 'Concatenate' }), [], 'no table');

  const left = createTable([{ k: 1, x: 'a', l: 1 }, { k: 2, x: null, l: 2 }, { k: 4, x: 'd', l: 4 }]);
  const right = createTable([{ k: 2, x: 'B', r: 'two' }, { k: 3, x: 'C', r: 'three' }, { k: 1, x: 'A', r: 'one' }]);
  const merge = (merge_how: string, params: Record<string, unknown> = {}) => rowsOf({ input_type: 'Table', operation: 'Merge', merge_on_column: 'k', merge_how, ...params }, { edges: { left_dataframe: left, right_dataframe: right } });
  t.same(await merge('inner'), [{ k: 1, x: 'a', l: 1, r: 'one' }, { k: 2, x: 'B', l: 2, r: 'two' }], 'inner: left order; a shared column keeps the left value unless empty');
  t.same(await merge('left'), [{ k: 1, x: 'a', l: 1, r: 'one' }, { k: 2, x: 'B', l: 2, r: 'two' }, { k: 4, x: 'd', l: 4, r: null }]);
  t.same(await merge('right'), [{ k: 2, x: 'B', l: 2, r: 'two' }, { k: 3, x: 'C', l: null, r: 'three' }, { k: 1, x: 'a', l: 1, r: 'one' }], 'right: right order');
  t.same(await merge('outer'), [{ k: 1, x: 'a', l: 1, r: 'one' }, { k: 2, x: 'B', l: 2, r: 'two' }, { k: 3, x: 'C', l: null, r: 'three' }, { k: 4, x: 'd', l: 4, r: null }], 'outer: sorted by key');
  const many = await rowsOf({ operation: 'Merge', merge_on_column: 'g' }, { edges: { left_dataframe: createTable([{ g: 'x', a: 1 }, { g: 'x', a: 2 }]), right_dataframe: createTable([{ g: 'x', b: 1 }, { g: 'x', b: 2 }]) } });
  t.same(many.map((r) => `${r.a}${r.b}`), ['11', '12', '21', '22'], 'many to many');
  const twice = createTable([{ k: 1, r: 'a' }, { k: 1, r: 'b' }, { k: 5, r: 'c' }]);
  const three = createTable([{ k: 2 }, { k: 1 }, { k: 3 }]);
  const keyed = (how: string) => rowsOf({ operation: 'Merge', merge_on_column: 'k', merge_how: how }, { edges: { left_dataframe: three, right_dataframe: twice } });
  t.same(await keyed('left'), [{ k: 2, r: null }, { k: 1, r: 'a' }, { k: 1, r: 'b' }, { k: 3, r: null }], 'a key twice on the right: unmatched left rows stay in place');
  t.same(await keyed('inner'), [{ k: 1, r: 'a' }, { k: 1, r: 'b' }]);
  t.same(await keyed('right'), [{ k: 1, r: 'a' }, { k: 1, r: 'b' }, { k: 5, r: 'c' }]);
  t.same(await keyed('outer'), [{ k: 1, r: 'a' }, { k: 1, r: 'b' }, { k: 2, r: null }, { k: 3, r: null }, { k: 5, r: 'c' }]);
  t.same(await rowsOf({ operation: 'Merge', merge_on_column: 'k' }, { edges: { df: [left, right] } }), await merge('inner'), 'without left/right tables the two df tables are used');
  t.same(await rowsOf({ operation: 'Merge', merge_on_column: 'k' }, { edges: { left_dataframe: left } }), left.rows, 'no right table: the left table');
  t.same(await rowsOf({ operation: 'Merge', merge_on_column: 'k' }), [], 'no table at all');
  await t.rejects(merge('inner', { merge_on_column: 'l' }), { name: 'ComponentError', message: 'Merge: column "l" (merge_on_column) not found in the right table. Available columns: ["k","x","r"]' });
  await t.rejects(merge('inner', { merge_on_column: 'r' }), { message: 'Merge: column "r" (merge_on_column) not found in the left table. Available columns: ["k","x","l"]' });
  await t.rejects(merge('inner', { merge_on_column: '' }), { message: /Merge: choose the key column \(merge_on_column\)/ });
  await t.rejects(merge('cross'), { message: 'Merge: unknown merge type "cross" (merge_how); use inner, left, right, outer' });
});

t.test('edge cases: zero rows, one row, Unicode names, nulls, JSON inputs', async (t) => {
  const empty = createTable([]);
  for (const operation of ['Sort', 'Filter', 'Drop Column', 'Head', 'Tail', 'Drop Duplicates', 'Add Column', 'Select Columns', 'Replace Value', 'Rename Column']) {
    t.same(await table(operation, { column_name: 'x', new_column_name: 'y', columns_to_select: ['x'] }, empty), [], `${operation} on a table without rows`);
  }
  const one = createTable([{ 'prénom': 'Zoë', '年齢': 7 }]);
  t.same(await table('Sort', { column_name: '年齢' }, one), one.rows);
  t.same(await table('Filter', { column_name: 'prénom', filter_value: 'Zoë' }, one), one.rows);
  t.same(await table('Rename Column', { column_name: '年齢', new_column_name: 'âge' }, one), [{ prénom: 'Zoë', âge: 7 }]);
  t.same(await table('Drop Duplicates', { column_name: 'prénom' }, one), one.rows);

  const ragged = createTable([{ a: 1 }, { b: 2 }]);
  t.same(await table('Head', { num_rows: 5 }, ragged), [{ a: 1, b: null }, { a: null, b: 2 }], 'rows with different keys: every column, nulls where missing');

  t.same(await rowsOf({ operation: 'Head', num_rows: 1, df: [{ a: 1 }, { a: 2 }] }), [{ a: 1 }], 'rows given as JSON in the node');
  t.same(await rowsOf({ operation: 'Head', num_rows: 1, df: '[{"a": "json text"}]' }), [{ a: 'json text' }]);
  t.same(await rowsOf({ operation: 'Head', df: { a: [1, 2], b: ['x', 'y'] } }), [{ a: 1, b: 'x' }, { a: 2, b: 'y' }], 'columns given as an object of lists');
  t.same(await table('Head', {}, createData({ items: [{ a: 1 }, { a: 2 }] })), [{ a: 1 }, { a: 2 }], 'a JSON holding one list of rows');
  t.same(await table('Head', {}, createData({ a: 1, b: 2 })), [{ a: 1, b: 2 }], 'any other JSON is one row');
  await t.rejects(table('Head', {}, createMessage({ text: 'hello' })), { name: 'ComponentError', message: 'Expected a Table (rows of objects) in df, got a Message' });
  await t.rejects(rowsOf({ operation: 'Head', df: 'not json' }), { message: 'Expected a Table (rows of objects) in df, got text that is not JSON' });
  const outputs = await runOperation({ operation: 'Sort', column_name: 'age' }, { edges: { df: [people] } });
  t.same(Object.keys(outputs), ['dataframe'], 'Table operations give a Table');
  t.same((await runOperation({ operation: 'Head', num_rows: 1 }, { edges: { df: [people] }, requested: ['output', 'message'] })).output.rows, [people.rows[0]], 'the older output name "output"');
  t.same(people.rows[0], { name: 'Ada', age: 36, city: 'London' }, 'inputs are never modified');
});
