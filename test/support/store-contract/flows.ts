/** The contract for flows: reads by id, owner, folder and endpoint name; per-owner unique names; renaming. */
import type { Test } from 'tap';
import { flowRenamer } from '../../../src/services/unique-names.js';
import { freshStore, type OpenStore } from './opened.js';
import { byId, flow } from './records.js';
import { refused } from './refused.js';

export function flowsContract(t: Test, open: OpenStore): void {
  t.test('flows: every read finds what was inserted', async (t) => {
    const { store } = await freshStore(t, open);
    const mine = flow('u1', { name: 'Mine', endpoint_name: 'mine', folder_id: 'p1' });
    const second = flow('u1', { name: 'Second', folder_id: 'p2' });
    const shared = flow(null, { name: 'Shared', endpoint_name: 'shared' });
    for (const f of [mine, second, shared]) t.same(await store.flows.insert(f), f, `insert resolves to ${f.name} as stored`);
    t.same(await store.flows.get(mine.id), mine, 'get');
    t.same(await store.flows.getShared(mine.id), mine, 'getShared');
    t.same(await store.flows.getByEndpointName('u1', 'mine'), mine, 'getByEndpointName');
    t.same(await store.flows.getSharedByEndpointName(null, 'shared'), shared, 'getSharedByEndpointName, owner-less');
    t.equal(await store.flows.getByEndpointName('u2', 'mine'), undefined, "another owner's endpoint name");
    t.equal(await store.flows.get('no-such-flow'), undefined, 'an unknown id');
    t.same(byId(await store.flows.listByUser('u1')), byId([mine, second]), 'listByUser');
    t.same(byId(await store.flows.listByUser(null)), byId([shared]), 'listByUser(null): owner-less flows');
    t.same(byId(await store.flows.listByFolder('p1')), byId([mine]), 'listByFolder');
    t.same((await store.flows.ids()).sort(), byId([mine, second, shared]).map((f) => f.id), 'ids: every owner');
    t.same((await store.flows.namesOf('u1')).sort(), ['Mine', 'Second'], 'namesOf');
    t.same(await store.flows.endpointNamesOf('u1'), ['mine'], 'endpointNamesOf');
  });

  t.test('flows: names and endpoint names are unique per owner', async (t) => {
    const { store } = await freshStore(t, open);
    const first = flow('u1', { name: 'Taken', endpoint_name: 'taken' });
    await store.flows.insert(first);
    await refused(t, store.flows.insert(flow('u1', { name: 'Taken' })), 'name', 'Taken', 'a taken name');
    await refused(t, store.flows.insert(flow('u1', { endpoint_name: 'taken' })), 'endpoint_name', 'taken', 'a taken endpoint name');
    t.same(byId(await store.flows.listByUser('u1')), byId([first]), 'refused inserts store nothing');
    const elsewhere = flow('u2', { name: 'Taken', endpoint_name: 'taken' });
    t.same(await store.flows.insert(elsewhere), elsewhere, 'another owner may use both');
    const second = flow('u1', { name: 'Second', endpoint_name: 'second' });
    await store.flows.insert(second);
    await refused(t, store.flows.update(second, { ...second, name: 'Taken' }), 'name', 'Taken', 'renaming onto a taken name');
    await refused(t, store.flows.update(second, { ...second, endpoint_name: 'taken' }), 'endpoint_name', 'taken', 'onto a taken endpoint name');
    t.same(await store.flows.get(second.id), second, 'refused updates change nothing');
  });

  t.test('flows: a renamer resolves clashes inside the write', async (t) => {
    const { store } = await freshStore(t, open);
    for (const name of ['Doc', 'Doc (5)', 'Doc (2)']) await store.flows.insert(flow('u1', { name }));
    await store.flows.insert(flow('u1', { name: 'Ep', endpoint_name: 'ep' }));
    const renamed = await store.flows.insert(flow('u1', { name: 'Doc', endpoint_name: 'ep' }), flowRenamer);
    t.same([renamed.name, renamed.endpoint_name], ['Doc (6)', 'ep-1'], 'the renamer chose from the names taken');
    t.same(await store.flows.get(renamed.id), renamed, 'and the flow is stored under the chosen names');
    const concurrent = await Promise.all([1, 2, 3, 4].map(() => store.flows.insert(flow('u1', { name: 'Same' }), flowRenamer)));
    t.same(concurrent.map((f) => f.name).sort(), ['Same', 'Same (1)', 'Same (2)', 'Same (3)'], 'concurrent creates all get distinct names');
    const free = await store.flows.insert(flow('u2', { name: 'Doc' }), flowRenamer);
    t.equal(free.name, 'Doc', "another owner's free name is kept");
  });

  t.test('flows: an update moves the unique names and reaches every read', async (t) => {
    const { store } = await freshStore(t, open);
    const before = flow('u1', { name: 'Old', endpoint_name: 'old', folder_id: 'p1' });
    await store.flows.insert(before);
    await store.flows.getShared(before.id);
    const after = { ...before, name: 'New', endpoint_name: 'new', folder_id: 'p2' };
    await store.flows.update(before, after);
    t.same(await store.flows.getShared(before.id), after, 'getShared sees the update');
    t.same(await store.flows.getSharedByEndpointName('u1', 'new'), after, 'the new endpoint name finds it');
    t.equal(await store.flows.getByEndpointName('u1', 'old'), undefined, 'the old one does not');
    t.same(await store.flows.namesOf('u1'), ['New'], 'the old name is released');
    t.same(await store.flows.listByFolder('p2'), [after], 'listed in its new folder');
    t.same(await store.flows.listByFolder('p1'), [], 'and no longer in the old one');
    const reuse = flow('u1', { name: 'Old', endpoint_name: 'old' });
    t.same(await store.flows.insert(reuse), reuse, 'the old names are free again');
  });

  t.test("flows: moveToFolder moves the user's listed flows only", async (t) => {
    const { store } = await freshStore(t, open);
    const [a, b, there, theirs] = [flow('u1', { folder_id: 'p1' }), flow('u1', { folder_id: null }), flow('u1', { folder_id: 'p2' }), flow('u2', { folder_id: 'p1' })];
    for (const f of [a, b, there, theirs]) await store.flows.insert(f);
    t.equal(await store.flows.moveToFolder('u1', [a.id, b.id, there.id, theirs.id, 'no-such-flow'], 'p2'), 2, 'how many moved');
    t.same(byId(await store.flows.listByFolder('p2')), byId([a, b, there].map((f) => ({ ...f, folder_id: 'p2' }))), 'they are in the folder');
    t.same(byId(await store.flows.listByFolder('p1')), byId([theirs]), "another user's flow stays");
    t.equal((await store.flows.get(a.id))?.folder_id, 'p2', 'the record says so');
  });

  t.test('flows: delete removes the flow from every read and frees its names', async (t) => {
    const { store } = await freshStore(t, open);
    const doomed = flow('u1', { name: 'Doomed', endpoint_name: 'doomed', folder_id: 'p1' });
    await store.flows.insert(doomed);
    await store.flows.getShared(doomed.id);
    await store.flows.delete(doomed);
    t.equal(await store.flows.get(doomed.id), undefined, 'get');
    t.equal(await store.flows.getShared(doomed.id), undefined, 'getShared');
    t.equal(await store.flows.getSharedByEndpointName('u1', 'doomed'), undefined, 'by endpoint name');
    t.same([await store.flows.listByUser('u1'), await store.flows.listByFolder('p1'), await store.flows.ids()], [[], [], []], 'the listings');
    const reuse = flow('u1', { name: 'Doomed', endpoint_name: 'doomed' });
    t.same(await store.flows.insert(reuse), reuse, 'its names are free');
  });
}
