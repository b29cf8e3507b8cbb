/** The contract for a store's life: ping while usable and not after close; data and unique names survive a restart. */
import type { Test } from 'tap';
import { freshStore, type OpenStore } from './opened.js';
import { apiKey, flow, job, message, project, user, variable } from './records.js';
import { refused } from './refused.js';

export function lifecycleContract(t: Test, open: OpenStore): void {
  t.test('ping: resolves while the store is open, rejects once it is closed', async (t) => {
    const opened = await open();
    await t.resolves(opened.store.ping(), 'open');
    t.equal(await opened.store.openedAlone(), true, 'opened by this process alone: recovery is its to do');
    await opened.close();
    await t.rejects(opened.store.ping(), 'closed');
  });

  t.test('close and reopen: every aggregate is read back, unique names still hold', async (t) => {
    const { store, restart } = await freshStore(t, open);
    const [ada, key, owned, home, secret, said, queued] = [
      user({ username: 'ada' }), apiKey('u1'), flow('u1', { name: 'Kept', endpoint_name: 'kept' }), project('u1', { name: 'Home' }),
      variable('u1', { name: 'KEY' }), message('f1', 's1', 1), job({ status: 'queued' }),
    ];
    await store.users.insert(ada);
    await store.apiKeys.insert(key);
    await store.flows.insert(owned);
    await store.projects.insert(home);
    await store.variables.put(secret);
    await store.messages.put(said);
    await store.jobs.put(queued);
    await store.flowVersions.record({ flowId: owned.id, hash: 'h1', data: { nodes: [] }, createdAt: '2025-01-01T00:00:00.000Z' });
    await store.settings.put('secret_key', 'kept');

    const reopened = await restart();
    t.same(await reopened.users.getByUsername('ada'), ada, 'users');
    t.same(await reopened.apiKeys.getByHash(key.hash), key, 'api keys');
    t.same(await reopened.flows.getSharedByEndpointName('u1', 'kept'), owned, 'flows');
    t.same(await reopened.projects.getByName('u1', 'Home'), home, 'projects');
    t.same(await reopened.variables.getByName('u1', 'KEY'), secret, 'variables');
    t.same(await reopened.messages.session('f1', 's1', {}), [said], 'messages');
    t.same(await reopened.jobs.unfinished(), [queued], 'jobs, and their unfinished index');
    t.equal((await reopened.flowVersions.list(owned.id)).length, 1, 'flow versions');
    t.equal(await reopened.settings.get('secret_key'), 'kept', 'settings');
    await refused(t, reopened.users.insert(user({ username: 'ada' })), 'username', 'ada', 'a username taken before the restart');
    await refused(t, reopened.flows.insert(flow('u1', { name: 'Kept' })), 'name', 'Kept', 'a flow name taken before the restart');
  });
}
