/**
 * The event-stream parser of streamed chat replies: events come out whole however the bytes are cut into reads
 * (a CRLF or a multi-byte character split across two reads), with the event-stream rules for data lines,
 * comments, other fields and line ends.
 */
import t from 'tap';
import { SseDataParser } from '../src/components/models/chat-completions/sse-data.js';

function parse(reads: (string | Buffer)[]): string[] {
  const events: string[] = [];
  const parser = new SseDataParser({ onSseData: (data) => events.push(data) });
  for (const read of reads) parser.feedBytes(typeof read === 'string' ? Buffer.from(read) : read);
  return events;
}

/** Every way of cutting the bytes in two reads. */
function everySplit(text: string): Buffer[][] {
  const bytes = Buffer.from(text);
  const splits: Buffer[][] = [];
  for (let at = 0; at <= bytes.length; at++) splits.push([bytes.subarray(0, at), bytes.subarray(at)]);
  return splits;
}

t.test('data lines, joined with LF, one event per blank line, whatever the line ends', async (t) => {
  t.same(parse(['data: a\n\ndata: b\n\n']), ['a', 'b']);
  t.same(parse(['data: a\r\ndata:b\r\n\r\n']), ['a\nb'], 'CRLF, and no space after the colon');
  t.same(parse(['data: a\rdata: b\r\r']), ['a\nb'], 'CR alone');
  t.same(parse(['data\n\n']), [''], 'a data field without a colon is an empty data line');
  t.same(parse(['data:  two spaces\n\n']), [' two spaces'], 'only one leading space is dropped');
});

t.test('comments, other fields and events without data lines are not dispatched', async (t) => {
  t.same(parse([': keep-alive\n\nevent: x\nid: 3\nretry: 10\n\ndata: y\n\n']), ['y']);
  t.same(parse(['datum: no\ndata:: yes\n\n']), [': yes'], 'only the field named exactly data counts');
});

t.test('an event the stream never ended is not dispatched', async (t) => {
  t.same(parse(['data: a\n\ndata: b\n']), ['a']);
  t.same(parse(['data: a\n\ndata: b']), ['a']);
});

t.test('a leading byte-order mark is dropped', async (t) => {
  t.same(parse(['\uFEFFdata: a\n\n']), ['a']);
});

t.test('the same events however the bytes are cut, CRLF and multi-byte characters included', async (t) => {
  const text = 'data: h\u00e9llo \u20ac \u{1F600}\r\n\r\n: c\r\ndata: {"a":1}\r\ndata: z\r\n\r\n';
  const expected = ['h\u00e9llo \u20ac \u{1F600}', '{"a":1}\nz'];
  for (const split of everySplit(text)) t.same(parse(split), expected, `cut at ${split[0].length}`);
  t.same(parse([...Buffer.from(text)].map((byte) => Buffer.from([byte]))), expected, 'one byte a read');
});

t.test('bytes that are not UTF-8 become replacement characters, not a lost event', async (t) => {
  t.same(parse([Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0x0a, 0x0a])]), ['\uFFFD']);
  t.same(parse([Buffer.from('data: '), Buffer.from([0xe2, 0x82]), Buffer.from('\n\n')]), ['\uFFFD'], 'a character cut short and never completed');
});
