import { LangflowClient } from '@datastax/langflow-client';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { fileComponent } from '../src/components/data/file.js';
import { createData } from '../src/values/data.js';
import { createMessage } from '../src/values/message.js';
import { folderFiles } from './support/folder-files.js';
import { runComponent } from './support/component-run.js';
import { writeFixtures } from './support/file-fixtures.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

const dir = mkdtempSync(join(tmpdir(), 'flowsvc-files-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const names = writeFixtures(dir);
const files = folderFiles(dir);
const load = (params: Record<string, unknown>, requested?: string[], edges?: Record<string, unknown>) => runComponent(fileComponent, params, { files, requested, edges });

t.test('every format reads as text', async (t) => {
  const cases: [ext: string, expected: string][] = [
    ['txt', 'Plain text notes.\nSecond line.'],
    ['md', '# Title\n\nSome *markdown* text.'],
    ['csv', 'name,age\nAda,36\nAlan,41\n'],
    ['json', '{"service": "flowsvc", "port": 7860, "tags": ["a", "b"]}'],
    ['html', 'Page\nHeading\nPara & text'],
    ['pdf', 'Quarterly report (PDF)\nRevenue grew'],
    ['docx', 'Dear reader,\n\nThis is a DOCX letter.'],
  ];
  for (const [ext, expected] of cases) {
    const { message } = await load({ path: [names[ext]] }, ['message']);
    t.equal(message.text, expected, ext);
  }
});

t.test('structured outputs: a CSV as rows, a JSON file as Data, files as a table, the paths', async (t) => {
  t.same((await load({ path: [names.csv] }, ['dataframe'])).dataframe.rows, [
    { name: 'Ada', age: 36 },
    { name: 'Alan', age: 41 },
  ]);
  t.same((await load({ path: [names.json] }, ['json'])).json.data, { service: 'flowsvc', port: 7860, tags: ['a', 'b'] });
  const both = await load({ path: [names.txt, names.md], separator: '\n---\n' }, ['message', 'dataframe', 'path']);
  t.equal(both.message.text, 'Plain text notes.\nSecond line.\n---\n# Title\n\nSome *markdown* text.');
  t.same(both.dataframe.rows.map((r: { file_path: string }) => r.file_path), [names.txt, names.md], 'the paths as given, not where they lie');
  t.equal(both.path.text, `${names.txt}\n${names.md}`);
  const everything = await load({ path: [names.txt] });
  t.notOk('json' in everything, 'with every output asked for, a missing JSON file is not an error');
  await t.rejects(load({ path: [names.txt] }, ['json']), { message: /needs exactly one \.json file/ });
});

t.test('paths: each opened through the run\'s files, Server File Path values supersede', async (t) => {
  t.equal((await load({ path: [join(dir, names.txt)] }, ['message'])).message.text, 'Plain text notes.\nSecond line.');
  const fromEdge = await load({ path: [names.txt] }, ['message'], { file_path: [createData({ file_path: names.md }), createMessage({ text: names.txt })] });
  t.equal(fromEdge.message.text, '# Title\n\nSome *markdown* text.\n\nPlain text notes.\nSecond line.');
  await t.rejects(load({}, ['message'], { file_path: [createData({ other: 1 })] }), { message: /Field "Server File Path" \(file_path\): a Data has no 'file_path' key \(keys: other\)/ });
  const ignored = await load({ ignore_unspecified_files: true }, ['message'], { file_path: [createData({ other: 1 }), createData({ file_path: names.txt })] });
  t.equal(ignored.message.text, 'Plain text notes.\nSecond line.');
});

t.test('failures name the file', async (t) => {
  await t.rejects(load({ path: ['missing.txt'] }), { name: 'ComponentError', message: 'Error loading file missing.txt: no such file' });
  await t.rejects(load({ path: ['picture.png'] }), { message: 'Error loading file picture.png: this file type is not supported yet' });
  await t.rejects(load({ path: [] }), { message: 'Field "Files" (path): no file selected' });
  writeFileSync(join(dir, 'broken.json'), '{not json');
  await t.rejects(load({ path: ['broken.json'] }), { message: /^Error loading file broken\.json: .*JSON/ });
  writeFileSync(join(dir, 'broken.pdf'), 'not a pdf at all');
  await t.rejects(load({ path: ['broken.pdf'] }), { message: /^Error loading file broken\.pdf: / });
  mkdirSync(join(dir, 'folder.txt'), { recursive: true });
  await t.rejects(load({ path: ['folder.txt'] }), { message: 'Error loading file folder.txt: it is a folder, not a file' });
  await t.rejects(runComponent(fileComponent, { path: ['relative.txt'] }), { message: /File "relative.txt" cannot be read: this run has no files/ });
});

t.test('silent errors skip what cannot be read; unknown extensions are skipped by default', async (t) => {
  const partial = await load({ path: ['missing.txt', names.txt, 'program.exe'], silent_errors: true }, ['message']);
  t.equal(partial.message.text, 'Plain text notes.\nSecond line.');
  await t.rejects(load({ path: ['program.exe'] }), { message: /none of the files could be read/ });
  await t.rejects(load({ path: ['program.exe'], ignore_unsupported_extensions: false }), { message: 'Error loading file program.exe: unsupported file extension' });
});
