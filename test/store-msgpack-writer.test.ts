/**
 * The msgpack writer the trace rows are written with (src/store/msgpack-writer.ts): what it writes, msgpackr reads
 * back as the same values, at every size class of strings, numbers, arrays and maps, from a buffer that has to grow.
 */
import { Packr, Unpackr } from 'msgpackr';
import t from 'tap';
import { MsgpackWriter } from '../src/store/msgpack-writer.js';

const unpacker = new Unpackr({ useRecords: false, mapsAsObjects: true });
// Maps past 65,535 keys need msgpackr's variable map size (its default refuses them).
const packer = new Packr({ useRecords: false, variableMapSize: true });

/** Written into a writer that starts smaller than any of these values. */
function written(value: unknown): Buffer {
  const out = new MsgpackWriter(4);
  out.value(value);
  return Buffer.from(out.written());
}

t.test('values read back as written', async (t) => {
  const values: unknown[] = [
    null,
    true,
    false,
    0,
    -0,
    1,
    127,
    128,
    255,
    256,
    65_535,
    65_536,
    2 ** 32 - 1,
    2 ** 32,
    Date.now(),
    -1,
    -32,
    -33,
    -(2 ** 31),
    -(2 ** 31) - 1,
    0.5,
    -1234.5678,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_VALUE,
    Number.POSITIVE_INFINITY,
    '',
    'a',
    'x'.repeat(31),
    'x'.repeat(32),
    'x'.repeat(85),
    'x'.repeat(86),
    'x'.repeat(70_000),
    'é',
    'ß'.repeat(40),
    '日本語のテキスト',
    '😀 emoji',
    [],
    [1, 'two', null],
    Array.from({ length: 15 }, (_, n) => n),
    Array.from({ length: 16 }, (_, n) => n),
    Array.from({ length: 70_000 }, (_, n) => n % 7),
    {},
    { a: 1, b: { c: [true, { d: 'deep' }] } },
    Object.fromEntries(Array.from({ length: 16 }, (_, n) => [`k${n}`, n])),
    Object.fromEntries(Array.from({ length: 70_000 }, (_, n) => [`k${n}`, n])),
  ];
  for (const value of values) {
    const label = typeof value === 'string' ? `a text of ${value.length}` : Array.isArray(value) ? `an array of ${value.length}` : JSON.stringify(value)?.slice(0, 40);
    t.strictSame(unpacker.unpack(written(value)), unpacker.unpack(packer.pack(value)), `${label} reads back as msgpackr's own`);
  }
  t.equal(Object.is(unpacker.unpack(written(-0)), 0), true, '-0 is written as 0, as msgpackr does');
  t.equal(unpacker.unpack(written('lone \ud800 surrogate')), 'lone \ufffd surrogate', 'a lone surrogate is written as U+FFFD, as Buffer writes UTF-8');
  t.equal(unpacker.unpack(written(undefined)), undefined, 'undefined reads back as undefined');
});

t.test('headers, raw bytes and reuse', async (t) => {
  const out = new MsgpackWriter(2);
  out.arrayHeader(3);
  out.str('a');
  out.num(2);
  out.mapHeader(1);
  out.str('k');
  const inner = new MsgpackWriter();
  inner.value(['v', 1.5]);
  out.raw(inner.written());
  t.strictSame(unpacker.unpack(out.written()), ['a', 2, { k: ['v', 1.5] }], 'items written after their header, raw bytes as they were');
  const from = out.length;
  out.value('second');
  t.equal(unpacker.unpack(out.written(from)), 'second', 'what was written since a point reads alone');
  out.reset();
  out.value({ again: true });
  t.strictSame(unpacker.unpack(out.written()), { again: true }, 'a reset writer writes from the start');
});
