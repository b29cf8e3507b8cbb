import t from 'tap';
import { applySpec } from '../src/components/shared/format-spec.js';
import { fieldNames, fillFormat, MISSING, parseFormat } from '../src/components/shared/python-format.js';

const format = (template: string, values: Record<string, unknown>) => fillFormat(parseFormat(template), (name) => (name in values ? values[name] : MISSING), (name) => `<${name}?>`);

t.test("Python's str.format as Langflow templates use it", async (t) => {
  const cases: [template: string, values: Record<string, unknown>, expected: string][] = [
    ['{a}-{b}', { a: 1, b: 'x' }, '1-x'],
    ['{{}} {{a}}', {}, '{} {a}'],
    ['{flag} {nothing} {n}', { flag: false, nothing: null, n: 2.5 }, 'False None 2.5'],
    ['{s!r} {s!s}', { s: "it's" }, `"it's" it's`],
    ['{row[name]} {row.age} {items[1]}', { row: { name: 'Ada', age: 36 }, items: ['a', 'b'] }, 'Ada 36 b'],
    ['{missing}', {}, '<missing?>'],
    ['{First Name}', { 'First Name': 'Ada' }, 'Ada'],
  ];
  for (const [template, values, expected] of cases) t.equal(format(template, values), expected, template);
  t.same(fieldNames(parseFormat('{a} {b} {a} {{c}}')), ['a', 'b']);
  t.throws(() => format('{row[gone]}', { row: {} }), /\{row\[gone\]\}: row has no key 'gone'/);
  t.throws(() => parseFormat('{a.}'), /expected '\.name' or '\[key\]'/);
});

t.test('the format-spec mini-language', async (t) => {
  const cases: [value: unknown, spec: string, expected: string][] = [
    [3.14159, '.2f', '3.14'],
    [1234567.891, ',.1f', '1,234,567.9'],
    [42, '05d', '00042'],
    [-42, '=+8d', '-     42'],
    [42, '+d', '+42'],
    [255, '#x', '0xff'],
    [255, 'X', 'FF'],
    [5, 'b', '101'],
    [0.256, '.1%', '25.6%'],
    [12345.678, '.3e', '1.235e+04'],
    [1234567, '_d', '1_234_567'],
    ['ab', '>5', '   ab'],
    ['ab', '*^6', '**ab**'],
    ['abcdef', '.3', 'abc'],
    [7, '<4', '7   '],
    [7, '', '7'],
    [true, 'd', '1'],
    [0.1 + 0.2, '.3g', '0.3'],
    [Infinity, '.2f', 'inf'],
  ];
  for (const [value, spec, expected] of cases) t.equal(applySpec(value, spec), expected, `${JSON.stringify(value)}:${spec}`);
  t.throws(() => applySpec(1.5, 'd'), /Unknown format code 'd' for a float value/);
  t.throws(() => applySpec('text', '.2f'), /Unknown format code 'f' for a value of type string/);
  t.throws(() => applySpec(1, 'zz'), /Invalid format specifier 'zz'/);
});
