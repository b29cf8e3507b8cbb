/** The contract for flow versions (by content hash, first date kept) and the service's settings. */
import type { Test } from 'tap';
import { freshStore, type OpenStore } from './opened.js';

export function versionsContract(t: Test, open: OpenStore): void {
  t.test('flow versions: by flow and hash, oldest first; the first record of a hash stays', async (t) => {
    const { store } = await freshStore(t, open);
    const v2 = { flowId: 'f1', hash: 'aaaa', data: { nodes: [2] }, createdAt: '2025-01-02T00:00:00.000Z' };
    const v1 = { flowId: 'f1', hash: 'bbbb', data: { nodes: [1] }, createdAt: '2025-01-01T00:00:00.000Z' };
    const other = { flowId: 'f2', hash: 'aaaa', data: { nodes: [] }, createdAt: '2025-01-03T00:00:00.000Z' };
    for (const version of [v2, v1, other]) await store.flowVersions.record(version);
    t.same(await store.flowVersions.get('f1', 'aaaa'), v2, 'get');
    t.equal(await store.flowVersions.get('f1', 'cccc'), undefined, 'an unknown hash');
    t.same(await store.flowVersions.list('f1'), [v1, v2], "list: the flow's versions, oldest first");
    await store.flowVersions.record({ ...v1, createdAt: '2025-02-01T00:00:00.000Z' });
    t.same(await store.flowVersions.get('f1', 'bbbb'), v1, 'a hash recorded again keeps its first date');
    await store.flowVersions.deleteAll('f1');
    t.same(await store.flowVersions.list('f1'), [], 'deleteAll: the flow has none');
    t.equal(await store.flowVersions.get('f1', 'aaaa'), undefined, 'deleteAll: get');
    t.same(await store.flowVersions.list('f2'), [other], "another flow's versions stay");
  });

  t.test('settings: put, get, overwrite', async (t) => {
    const { store } = await freshStore(t, open);
    t.equal(await store.settings.get('secret_key'), undefined, 'unset');
    await store.settings.put('secret_key', 'first');
    await store.settings.put('schema', '3');
    t.equal(await store.settings.get('secret_key'), 'first', 'get');
    await store.settings.put('secret_key', 'second');
    t.equal(await store.settings.get('secret_key'), 'second', 'a put replaces');
    t.equal(await store.settings.get('schema'), '3', 'the others stay');
  });

  t.test('settings: putIfAbsent keeps the first value stored, and says which', async (t) => {
    const { store } = await freshStore(t, open);
    const raced = await Promise.all(['a', 'b', 'c'].map((value) => store.settings.putIfAbsent('secret_key', value)));
    t.equal(new Set(raced).size, 1, 'concurrent callers all get one value');
    t.equal(await store.settings.get('secret_key'), raced[0], 'the one stored');
    t.equal(await store.settings.putIfAbsent('secret_key', 'later'), raced[0], 'a later call keeps it');
  });
}
