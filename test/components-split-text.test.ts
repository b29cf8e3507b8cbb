import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { splitText } from '../src/components/processing/character-splitter.js';
import { splitTextComponent } from '../src/components/processing/split-text.js';
import { createData } from '../src/values/data.js';
import { createMessage } from '../src/values/message.js';
import { createTable } from '../src/values/table.js';
import { runComponent } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

t.test("the character splitter follows LangChain's CharacterTextSplitter", async (t) => {
  const cases: [text: string, separator: string, size: number, overlap: number, keep: false | 'start' | 'end', expected: string[]][] = [
    ['a\nb\nc', '\n', 3, 0, false, ['a\nb', 'c']],
    ['a\nb\nc', '\n', 3, 1, false, ['a\nb', 'b\nc']],
    ['one two three four five', ' ', 9, 3, false, ['one two', 'two three', 'four five']],
    ['short', '\n', 100, 10, false, ['short']],
    ['a very long piece\nx', '\n', 5, 0, false, ['a very long piece', 'x']],
    ['p1\n\n\n\np2\n\n', '\n\n', 10, 0, false, ['p1\n\np2']],
    ['p1\n\n\n\np2\n\n', '\n\n', 3, 0, false, ['p1', 'p2']],
    ['  padded  \n  lines  ', '\n', 8, 0, false, ['padded', 'lines']],
    ['a.b.c', '.', 3, 0, 'start', ['a.b', '.c']],
    ['a.b.c', '.', 3, 0, 'end', ['a.', 'b.c']],
    ['abcdef', '', 2, 0, false, ['ab', 'cd', 'ef']],
    ['ééé\nééé', '\n', 3, 0, false, ['ééé', 'ééé']],
    ['', '\n', 10, 0, false, []],
  ];
  for (const [text, separator, chunkSize, chunkOverlap, keepSeparator, expected] of cases) {
    t.same(splitText(text, { separator, chunkSize, chunkOverlap, keepSeparator }), expected, JSON.stringify([text, separator, chunkSize, chunkOverlap, keepSeparator]));
  }
});

const split = async (input: unknown, params: Record<string, unknown> = {}) => (await runComponent(splitTextComponent, params, { edges: { data_inputs: input } })).dataframe;

t.test('Split Text chunks a Message, a Data or each table row, keeping the other keys', async (t) => {
  const fromMessage = await split(createMessage({ text: 'l1\nl2\nl3', sender: 'User' }), { chunk_size: 5, chunk_overlap: 0 });
  t.equal(fromMessage.kind, 'table');
  t.same(fromMessage.rows.map((r: { text: string }) => r.text), ['l1\nl2', 'l3']);
  t.equal(fromMessage.rows[0].sender, 'User', 'the message fields travel with each chunk');

  const fromData = await split(createData({ content: 'x y z', source: 'doc-1' }), { text_key: 'content', separator: ' ', chunk_size: 3, chunk_overlap: 0 });
  t.same(fromData.rows, [
    { source: 'doc-1', text: 'x y' },
    { source: 'doc-1', text: 'z' },
  ]);

  const fromTable = await split(createTable([{ text: 'a\nb', id: 1 }, { text: 'c', id: 2 }]), { chunk_size: 1, chunk_overlap: 0 });
  t.same(fromTable.rows, [
    { id: 1, text: 'a' },
    { id: 1, text: 'b' },
    { id: 2, text: 'c' },
  ]);

  const escaped = await split(createMessage({ text: 'p1\n\np2' }), { separator: '\\n\\n', chunk_size: 2, chunk_overlap: 0 });
  t.same(escaped.rows.map((r: { text: string }) => r.text), ['p1', 'p2'], 'a typed "\\n" is a newline');
  const typo = await split(createMessage({ text: 'a\nb' }), { separator: '/n', chunk_size: 1, chunk_overlap: 0 });
  t.same(typo.rows.map((r: { text: string }) => r.text), ['a', 'b'], 'the "/n" typo is read as a newline, as Langflow does');
  const defaults = await split(createMessage({ text: 'x'.repeat(1500) + '\n' + 'y'.repeat(10) }));
  t.equal(defaults.rows.length, 2, 'defaults: 1000 characters with 200 overlap');
});

t.test('bad input is an error naming the field', async (t) => {
  await t.rejects(split(undefined), { message: /Field "Input" \(data_inputs\): no data inputs provided/ });
  await t.rejects(split(createTable([])), { message: /the DataFrame is empty/ });
  await t.rejects(split(createTable([{ body: 'x' }])), { message: /Field "Text Key" \(text_key\): row 0 has no "text" key; it has "body"/ });
  await t.rejects(split(createMessage({ text: 'x' }), { chunk_size: 10, chunk_overlap: 20 }), { message: /Field "Chunk Overlap" \(chunk_overlap\): 20 is larger than the chunk size 10/ });
  await t.rejects(split(createMessage({ text: 'x' }), { keep_separator: 'Sometimes' }), { message: /Field "Keep Separator" \(keep_separator\)/ });
  await t.rejects(split(createMessage({ text: 'x' }), { chunk_size: 'big' }), { message: /Field "Chunk Size" \(chunk_size\)/ });
  await t.rejects(split(42), { message: /expected a Message, a Data or a DataFrame/ });
});

t.test('a flow through /api/v1/run splits the chat input and prints the chunks', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(
    server,
    flow(
      'Splitter',
      [
        node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'),
        node('SplitText-sp001', 'SplitText', { chunk_size: 11, chunk_overlap: 0, separator: ' ' }, 'Split Text'),
        node('ParserComponent-pa001', 'ParserComponent', { pattern: '[{text}]', sep: '' }, 'Parser'),
        node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output'),
      ],
      [
        edge('ChatInput-in001', 'message', 'SplitText-sp001', 'data_inputs'),
        edge('SplitText-sp001', 'dataframe', 'ParserComponent-pa001', 'input_data'),
        edge('ParserComponent-pa001', 'parsed_text', 'ChatOutput-out01', 'input_value'),
      ],
    ),
  );
  const reply = await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run('the quick brown fox jumps over the lazy dog');
  t.equal(reply.chatOutputText(), '[the quick][brown fox][jumps over][the lazy][dog]');
});
