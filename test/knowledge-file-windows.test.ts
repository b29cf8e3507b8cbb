/**
 * Text files read for ingestion as a stream: the windows are the ones the whole text would be cut into, with
 * characters of several bytes split across read pieces decoded whole and a byte order mark dropped; a binary file
 * under a text name is refused by name.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { fileWindows, NotTextError } from '../src/knowledge/ingest/file-text.js';
import { textWindows } from '../src/knowledge/ingest/recursive-splitter.js';

const dir = mkdtempSync(join(tmpdir(), 'flowsvc-file-windows-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

async function windowsOf(name: string, content: string | Buffer): Promise<string[]> {
  const path = join(dir, name);
  writeFileSync(path, content);
  const windows: string[] = [];
  for await (const window of fileWindows(path, name, new AbortController().signal)) windows.push(window);
  return windows;
}

t.test('a 1.5 MB text of paragraphs, lines and multi-byte characters: the same windows as the whole text', async (t) => {
  let text = '';
  for (let i = 0; text.length < 1_500_000; i++) text += `Paragraphe ${i}: café, naïve, 東京, 🦉 owls.${i % 7 === 0 ? '\n\n' : i % 3 === 0 ? '\n' : ' '}`;
  const streamed = await windowsOf('mixed.md', text);
  t.ok(streamed.length > 4, `${streamed.length} windows`);
  t.same(streamed, [...textWindows(text)], 'cut where the whole text is cut');
  t.equal(streamed.join(''), text, 'nothing lost or garbled');
});

t.test('a byte order mark is dropped; a text without breaks is cut at the window size', async (t) => {
  const long = 'x'.repeat(600 * 1024);
  const streamed = await windowsOf('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(long)]));
  t.same(streamed, [...textWindows(long)]);
  t.equal(streamed[0]![0], 'x');
});

t.test('binary data under a text name is refused by name; an empty file has no windows', async (t) => {
  await t.rejects(windowsOf('image.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13])), NotTextError);
  t.same(await windowsOf('empty.txt', ''), []);
});
