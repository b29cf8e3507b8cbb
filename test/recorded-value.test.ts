/**
 * What a run's values become in its records (src/services/records/recorded-value.ts): every kind of value a
 * component may output, and the bounds that keep a record small whatever a run produced; the same rules written
 * straight to a row read back the same.
 */
import { Unpackr } from 'msgpackr';
import t from 'tap';
import { RECORDED_OBJECT, recordedFields, recordedLinkKey, recordedValue, writeRecorded } from '../src/services/records/recorded-value.js';
import { MsgpackWriter } from '../src/store/msgpack-writer.js';
import { createData } from '../src/values/data.js';
import type { LanguageModelValue } from '../src/values/language-model.js';
import { createMessage } from '../src/values/message.js';
import { createTable } from '../src/values/table.js';

t.test('a message keeps its text and sender, not its session or properties', async (t) => {
  const message = createMessage({ text: 'hi', sender: 'User', sender_name: 'Ada', session_id: 'S1', properties: { icon: 'x' } as never });
  t.same(recordedValue(message), { text: 'hi', sender: 'User', sender_name: 'Ada' });
});

t.test('data is its fields, a table its rows (at most 100), a model its provider and name only', async (t) => {
  t.same(recordedValue(createData({ text: 'a', n: 1 })), { text: 'a', n: 1 });
  const table = createTable(Array.from({ length: 150 }, (_, n) => ({ n })));
  const rows = recordedValue(table) as unknown[];
  t.equal(rows.length, 100);
  t.same(rows[99], { n: 99 });
  const model = { kind: 'language_model', provider: 'openai', model: 'gpt-x', baseURL: 'http://h', settings: { apiKey: 'sk-secret' }, sdk: async () => ({}) } as unknown as LanguageModelValue;
  t.same(recordedValue(model), { provider: 'openai', model: 'gpt-x' });
  t.notMatch(JSON.stringify(recordedValue(model)), /sk-secret/);
});

t.test('plain values, arrays and objects; functions left out, live objects named, nothing else kept', async (t) => {
  t.equal(recordedValue('text'), 'text');
  t.equal(recordedValue(0), 0);
  t.equal(recordedValue(false), false);
  t.equal(recordedValue(null), null);
  t.equal(recordedValue(undefined), null);
  t.equal(recordedValue(10n), null);
  t.equal(recordedValue(Symbol('s')), null);
  t.equal(recordedValue(() => 1), null);
  t.same(recordedValue([1, 'a', null, { b: [2] }]), [1, 'a', null, { b: [2] }]);
  t.equal((recordedValue(Array.from({ length: 500 }, (_, n) => n)) as unknown[]).length, 100);
  t.same(recordedValue({ keep: 1, call: () => 2 }), { keep: 1 });
  t.equal(recordedValue(new Map([['a', 1]])), '<Map>');
  t.equal(recordedValue(new (class Tool {})()), '<Tool>');
  const bare = Object.assign(Object.create(null) as object, { a: 1 });
  t.same(recordedValue(bare), { a: 1 });
  // Keys past the 100th are left out; a function does not count as one.
  const wide = Object.fromEntries(Array.from({ length: 150 }, (_, n) => [`k${n}`, n]));
  t.equal(Object.keys(recordedValue({ f: () => 0, ...wide }) as object).length, 100);
});

t.test('long texts are cut, deep values stop at a marker', async (t) => {
  const long = recordedValue('x'.repeat(20_000)) as string;
  t.equal(long.length, 10_001);
  t.ok(long.endsWith('…'));
  t.equal((recordedValue(createMessage({ text: 'y'.repeat(20_000) })) as { text: string }).text.length, 10_001);
  let deep: unknown = 'bottom';
  for (let n = 0; n < 20; n++) deep = { next: deep };
  let level = recordedValue(deep) as { next: unknown };
  let depth = 0;
  while (typeof level === 'object') {
    level = level.next as { next: unknown };
    depth++;
  }
  t.equal(depth, 8);
  t.equal(level, '…');
});

t.test('a component output whose object names a kind of its own is kept as a plain object', async (t) => {
  t.same(recordedValue({ kind: 'custom', value: 1 }), { kind: 'custom', value: 1 });
  t.same(recordedFields({ message: createMessage({ text: 't' }), count: 3 }), { message: { text: 't', sender: null, sender_name: null }, count: 3 });
});

t.test('written to a row, every kind of value reads back as recorded; what links is told apart', async (t) => {
  let deep: unknown = 'bottom';
  for (let n = 0; n < 20; n++) deep = { next: deep };
  const model = { kind: 'language_model', provider: 'openai', model: 'gpt-x', settings: { apiKey: 'sk-secret' } };
  const values: unknown[] = [
    createMessage({ text: 'hi', sender: 'User', sender_name: 'Ada', session_id: 'S1' }),
    createMessage({ text: 'y'.repeat(20_000) }),
    createData({ text: 'a', n: 1, nested: { list: [1, 2] } }),
    createTable(Array.from({ length: 150 }, (_, n) => ({ n }))),
    model,
    'text',
    'x'.repeat(20_000),
    0,
    -2.5,
    false,
    null,
    undefined,
    10n,
    Symbol('s'),
    () => 1,
    [1, 'a', null, { b: [2] }, undefined],
    Array.from({ length: 500 }, (_, n) => n),
    { keep: 1, call: () => 2, gone: undefined },
    { f: () => 0, ...Object.fromEntries(Array.from({ length: 150 }, (_, n) => [`k${n}`, n])) },
    new Map([['a', 1]]),
    new (class AVeryLongToolClassNameIndeed {})(),
    Object.assign(Object.create(null) as object, { a: 1 }),
    { kind: 'custom', value: 1 },
    deep,
  ];
  const unpacker = new Unpackr({ useRecords: false, mapsAsObjects: true });
  for (const [n, value] of values.entries()) {
    const out = new MsgpackWriter(8);
    writeRecorded(out, value);
    t.strictSame(unpacker.unpack(out.written()), recordedValue(value), `value ${n} reads back as recorded`);
  }
  t.equal(recordedLinkKey('short'), undefined, 'a short text is written again, not linked');
  t.equal(recordedLinkKey('a text long enough to be linked'), 'a text long enough to be linked');
  t.equal(recordedLinkKey(createMessage({ text: 'm' })), RECORDED_OBJECT);
  t.equal(recordedLinkKey(createData({ a: 1 })), RECORDED_OBJECT, 'data recorded as its fields: an object');
  t.equal(recordedLinkKey(createData('a text held as data, long enough' as never)), 'a text held as data, long enough');
  t.equal(recordedLinkKey(new Map()), undefined, 'a live object recorded as a short name');
  t.equal(recordedLinkKey(new (class AVeryLongToolClassNameIndeed {})()), '<AVeryLongToolClassNameIndeed>');
  t.equal(recordedLinkKey(42), undefined);
});
