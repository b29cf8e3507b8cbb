/**
 * Write File (SaveToFile) on the News Aggregator starter's shape (Chat Input -> Chat Output -> Write File, its node
 * values as the starter has them): what a run saves is a new v2 file of the caller's, listed and downloadable, and
 * nobody else's; a name with a folder or 10 KB long is a clean error naming the node, and nothing is written.
 */
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

const server = await startTestServer();
t.teardown(() => server.close());
const SAVE = 'SaveToFile-VVVVb';

/** The starter's Write File node (storage Local, json), with `values` over it. */
function newsFlow(name: string, values: Record<string, unknown> = {}, source: 'message' | 'table' = 'message') {
  const save = node(SAVE, 'SaveToFile', { storage_location: [{ chosen: false, icon: 'hard-drive', name: 'Local', selected: false }], file_name: 'news-aggregated', local_format: 'json', append_mode: false, file_format: '', ...values }, 'Write File');
  const nodes = [node('ChatInput-S2wgk', 'ChatInput', {}, 'Chat Input'), node('ChatOutput-jNfAw', 'ChatOutput', {}, 'Chat Output'), save];
  const edges = [edge('ChatInput-S2wgk', 'message', 'ChatOutput-jNfAw', 'input_value'), edge('ChatOutput-jNfAw', 'message', SAVE, 'input')];
  if (source === 'table') {
    nodes.push(node('TypeConverterComponent-tbl01', 'TypeConverterComponent', { output_type: 'DataFrame', auto_parse: true }, 'Type Convert'));
    edges.splice(1, 1, edge('ChatInput-S2wgk', 'message', 'TypeConverterComponent-tbl01', 'input_data'), edge('TypeConverterComponent-tbl01', 'dataframe_output', SAVE, 'input'));
  }
  return flow(name, nodes, edges);
}

const myFiles = async (key?: string) => (await server.request('/api/v2/files', { key })).json();

t.test("a run saves the message as a new file of the caller's, downloadable, and nobody else's", async (t) => {
  const created = await createFlow(server, newsFlow('News saved'));
  await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run('Three headlines today.');
  const listed = (await myFiles()).find((file: any) => file.name === 'news-aggregated');
  t.match(listed, { path: /\.json$/ }, 'listed among the caller\'s files, a JSON file');
  const id = listed.id;
  const download = await server.request(`/api/v2/files/${id}`);
  t.equal(download.status, 200);
  t.same(JSON.parse(await download.text()), { message: 'Three headlines today.' });

  const other = await secondUser(server, 'file-neighbour');
  t.equal((await server.request(`/api/v2/files/${id}`, { key: other.key })).status, 404, "another user's request for it is a 404");
  t.notOk((await myFiles(other.key)).some((file: any) => file.id === id));

  await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run('A second edition.');
  const names = (await myFiles()).map((file: any) => file.name).filter((name: string) => name.startsWith('news-aggregated'));
  t.same(names.sort(), ['news-aggregated', 'news-aggregated (1)'], 'a second save is a second file, named as an upload would be');
});

t.test('a table saved as CSV, and a format that does not fit a message refused naming the node', async (t) => {
  const created = await createFlow(server, newsFlow('Table saved', { file_name: 'rows', local_format: 'csv' }, 'table'));
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: JSON.stringify([{ title: 'A', votes: 3 }, { title: 'B, again', votes: 5 }]) } });
  t.equal(res.status, 200);
  const file = (await myFiles()).find((f: any) => f.name === 'rows');
  t.equal(await (await server.request(`/api/v2/files/${file.id}`)).text(), 'title,votes\nA,3\n"B, again",5\n');

  const wrong = await createFlow(server, newsFlow('Message as CSV', { file_name: 'wrong', local_format: 'csv' }));
  const refused = await server.request(`/api/v1/run/${wrong.id}`, { method: 'POST', json: { input_value: 'text' } });
  t.not(refused.status, 200);
  t.match((await refused.json()).detail, new RegExp(`${SAVE}.*Invalid file format 'csv' for Message`, 's'));
});

t.test('a name with a folder, a parent reference or 10 KB of characters is a clean error naming the node; nothing is written', async (t) => {
  const before = (await myFiles()).length;
  for (const [name, says] of [
    ['../../etc/passwd', 'must be a file name only, without paths or parent directory references'],
    ['..', 'must be a file name only'],
    ['/tmp/x', 'must be a file name only'],
    ['C:\\\\x', 'must be a file name only'],
    ['x'.repeat(10_240), 'at most 200 characters (this one has 10240)'],
  ] as const) {
    const created = await createFlow(server, newsFlow(`Bad name ${name.slice(0, 10)}`, { file_name: name }));
    const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'secret' } });
    t.not(res.status, 200, name.slice(0, 20));
    const { detail } = await res.json();
    t.match(detail, SAVE, 'names the node');
    t.match(detail, says);
  }
  t.equal((await myFiles()).length, before);
});
