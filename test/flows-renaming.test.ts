/**
 * Taken flow names and endpoint names over many creates: the repo remembers the deciding similar names between
 * creates (so the n-th create of one name does not read all n), and must answer as a fresh read of every similar
 * name would after deletes, renames, failed creates and restarts.
 */
import t from 'tap';
import { SimilarNames } from '../src/store/lmdb/flow-similar-names.js';
import { flowRenamer } from '../src/services/unique-names.js';
import { createFlow, flowBody } from './support/flow-helpers.js';
import { startTestServer } from './support/server.js';

t.test('renaming stays Langflow\'s "one above the highest (n)" across deletes and renames', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const create = async (name: string, extra: Record<string, unknown> = {}) => createFlow(server, flowBody(name, extra));
  const patch = async (id: string, json: unknown) => {
    const res = await server.request(`/api/v1/flows/${id}`, { method: 'PATCH', json });
    t.equal(res.status, 200);
    return res.json();
  };
  const remove = async (id: string) => t.equal((await server.request(`/api/v1/flows/${id}`, { method: 'DELETE' })).status, 200);

  const made = [];
  for (let i = 0; i < 30; i++) made.push(await create('Many', { endpoint_name: 'many' }));
  t.same(made.map((f) => f.name), ['Many', ...Array.from({ length: 29 }, (_, i) => `Many (${i + 1})`)]);
  t.same(made.map((f) => f.endpoint_name), ['many', ...Array.from({ length: 29 }, (_, i) => `many-${i + 1}`)]);

  await remove(made[29].id);
  t.equal((await create('Many')).name, 'Many (29)', 'the highest deleted: its number is free again');
  await remove(made[5].id);
  t.equal((await create('Many')).name, 'Many (30)', 'a lower one deleted: still one above the highest');

  const renamed = await patch(made[3].id, { name: 'Many (x) (70)' });
  t.equal(renamed.name, 'Many (x) (70)');
  const seventyOne = await create('Many');
  t.equal(seventyOne.name, 'Many (71)', 'a renamed flow counts with its new name');
  await patch(renamed.id, { name: 'Elsewhere' });
  await patch(seventyOne.id, { name: 'Elsewhere too' });
  t.equal((await create('Many')).name, 'Many (31)', 'and stops counting once renamed away');

  await patch(made[1].id, { endpoint_name: 'many-500' });
  const other = await create('Other', { endpoint_name: 'many' });
  t.equal(other.endpoint_name, 'many-501');
  await patch(made[1].id, { endpoint_name: '' });
  t.equal((await create('Other', { endpoint_name: 'many' })).endpoint_name, 'many-502', 'clearing a lower one changes nothing');
  await patch(other.id, { endpoint_name: '' });
  await remove((await server.request('/api/v1/flows/?get_all=true&header_flows=true&remove_example_flows=true').then((r) => r.json())).find((f: any) => f.endpoint_name === 'many-502').id);
  t.equal((await create('Other', { endpoint_name: 'many' })).endpoint_name, 'many-29', 'cleared and deleted highest ones stop counting');

  const nested = await create('Many (31)');
  t.equal(nested.name, 'Many (31) (1)', 'a taken numbered name gets its own numbers');
  t.equal((await create('Many')).name, 'Many (32)', 'the nested name ends in (1): it does not lower the highest');
});

t.test('a restart forgets nothing that decides the next name', async (t) => {
  const first = await startTestServer();
  t.teardown(() => first.close());
  for (let i = 0; i < 3; i++) await createFlow(first, flowBody('Kept'));
  await first.stop();
  const again = await startTestServer({}, first.dataDir);
  t.teardown(() => again.close());
  t.equal((await createFlow(again, flowBody('Kept'))).name, 'Kept (3)');
});

t.test('SimilarNames hands the renamer the deciding names only, and follows the index', async (t) => {
  let scans = 0;
  const held = new Set(['Doc', 'Doc (1)', 'Doc (4)', 'Doc (2)', 'Doc (draft)']);
  const memo = new SimilarNames((_owner, _kind, prefix) => {
    scans++;
    return [...held].filter((name) => name.startsWith(prefix));
  });
  const next = () => flowRenamer.name('Doc', memo.of('u', 'n', 'Doc', flowRenamer));
  const add = (name: string) => (held.add(name), memo.added('u', 'n', name));
  const drop = (name: string) => (held.delete(name), memo.removed('u', 'n', name));

  t.same(memo.of('u', 'n', 'Doc', flowRenamer), ['Doc (4)'], 'one witness for many similar names');
  t.equal(next(), 'Doc (5)');
  add('Doc (5)');
  t.equal(next(), 'Doc (6)');
  add('Doc (3)');
  drop('Doc (1)');
  t.equal(next(), 'Doc (6)');
  t.equal(scans, 1, 'creates, lower numbers and removals of non-witnesses read nothing');
  drop('Doc (5)');
  t.equal(next(), 'Doc (5)');
  t.equal(scans, 2, 'removing the witness reads the names again');
  add('Doc (x) (9)');
  t.equal(next(), 'Doc (10)', 'names with their own parentheses count by their last number');
  t.same(memo.of('v', 'n', 'Doc', flowRenamer), ['Doc (x) (9)'], 'entries are per owner');
  memo.clear();
  drop('Doc (x) (9)');
  t.equal(next(), 'Doc (5)', 'a cleared memo reads again');
});
