/**
 * Batch creation lands as one batch: many flows with one name come back renamed in input order, stay in that order
 * in listings (they share a creation time), survive a restart, and a batch that fails part-way leaves nothing.
 */
import { rmSync } from 'node:fs';
import t from 'tap';
import { flowBody } from './support/flow-helpers.js';
import { startTestServer } from './support/server.js';

const COUNT = 40;

t.test('a batch of same-named flows: renamed in input order, listed in that order, kept across a restart', async (t) => {
  const first = await startTestServer();
  const flows = Array.from({ length: COUNT }, (_, i) => ({ ...flowBody('Same'), endpoint_name: 'same-ep', description: `#${i}` }));
  const res = await first.request('/api/v1/flows/batch/', { method: 'POST', json: { flows } });
  t.equal(res.status, 201);
  const created = (await res.json()) as any[];
  t.same(created.map((f) => f.description), flows.map((f) => f.description), 'the reply is in input order');
  t.same(created.map((f) => f.name), ['Same', ...Array.from({ length: COUNT - 1 }, (_, i) => `Same (${i + 1})`)]);
  t.same(created.map((f) => f.endpoint_name), ['same-ep', ...Array.from({ length: COUNT - 1 }, (_, i) => `same-ep-${i + 1}`)]);

  const listed = async (server: typeof first) => ((await (await server.request('/api/v1/flows/?remove_example_flows=true')).json()) as any[]).map((f) => f.name);
  t.same(await listed(first), created.map((f) => f.name), 'listed in creation order');
  await first.stop();

  const second = await startTestServer({}, first.dataDir);
  t.teardown(async () => {
    await second.close();
    rmSync(first.dataDir, { recursive: true, force: true });
  });
  t.same(await listed(second), created.map((f) => f.name), 'all of them, in order, after a restart');
  const again = await second.request('/api/v1/flows/batch/', { method: 'POST', json: { flows: [flowBody('Same')] } });
  t.equal((await again.json())[0].name, `Same (${COUNT})`, 'the next one continues the numbering');
});

t.test('a batch that fails part-way leaves none of its flows behind', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const before = (await (await server.request('/api/v1/flows/?remove_example_flows=true')).json()) as any[];
  // Fault injection: the store refuses the third insert of the batch, as a full disk would.
  const store = server.services.store.flows;
  const insert = store.insert;
  let inserts = 0;
  store.insert = (flow, renamer) => (++inserts === 3 ? Promise.reject(new Error('MDB_MAP_FULL: the disk is full')) : insert(flow, renamer));
  t.teardown(() => {
    store.insert = insert;
  });
  const res = await server.request('/api/v1/flows/batch/', { method: 'POST', json: { flows: [flowBody('A'), flowBody('B'), flowBody('C'), flowBody('D')] } });
  t.equal(res.status, 500);
  t.match(await res.json(), { detail: String });
  store.insert = insert;
  const after = (await (await server.request('/api/v1/flows/?remove_example_flows=true')).json()) as any[];
  t.same(after.map((f) => f.id), before.map((f) => f.id), 'none of A, B, C, D remain');
  const retried = await server.request('/api/v1/flows/batch/', { method: 'POST', json: { flows: [flowBody('A'), flowBody('B')] } });
  t.same((await retried.json()).map((f: any) => f.name), ['A', 'B'], 'their names are free again');
});
