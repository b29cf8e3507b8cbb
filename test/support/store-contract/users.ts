/** The contract for users (unique usernames) and API keys. */
import type { Test } from 'tap';
import { NameTakenError } from '../../../src/store/name-taken.error.js';
import { freshStore, type OpenStore } from './opened.js';
import { apiKey, byId, user } from './records.js';
import { refused } from './refused.js';

export function usersContract(t: Test, open: OpenStore): void {
  t.test('users: reads find what was inserted, and nothing else', async (t) => {
    const { store } = await freshStore(t, open);
    const [ada, bob] = [user({ username: 'ada' }), user({ username: 'bob' })];
    await store.users.insert(ada);
    await store.users.insert(bob);
    t.same(await store.users.get(ada.id), ada, 'get');
    t.same(await store.users.getShared(bob.id), bob, 'getShared');
    t.same(await store.users.getByUsername('ada'), ada, 'getByUsername');
    t.same(byId(await store.users.list()), byId([ada, bob]), 'list');
    t.equal(await store.users.get('no-such-user'), undefined, 'an unknown id');
    t.equal(await store.users.getByUsername('carol'), undefined, 'an unknown username');
  });

  t.test('users: a username is unique', async (t) => {
    const { store } = await freshStore(t, open);
    const [ada, bob] = [user({ username: 'ada' }), user({ username: 'bob' })];
    await store.users.insert(ada);
    await store.users.insert(bob);
    const twin = user({ username: 'ada' });
    await refused(t, store.users.insert(twin), 'username', 'ada', 'inserting a taken username');
    t.equal(await store.users.get(twin.id), undefined, 'the refused user is not stored');
    await refused(t, store.users.update({ ...bob, username: 'ada' }), 'username', 'ada', 'renaming onto a taken username');
    t.same(await store.users.get(bob.id), bob, 'the refused update changed nothing');
    t.same(await store.users.getByUsername('ada'), ada, 'the name still finds its holder');
    const concurrent = await Promise.allSettled([store.users.insert(user({ username: 'eve' })), store.users.insert(user({ username: 'eve' }))]);
    const losers = concurrent.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    t.equal(losers.length, 1, 'of two concurrent inserts of one username, one wins');
    t.type(losers[0], NameTakenError, 'the other is refused as a clash');
  });

  t.test('users: updates move the username and reach every read', async (t) => {
    const { store } = await freshStore(t, open);
    const ada = user({ username: 'ada' });
    await store.users.insert(ada);
    t.same(await store.users.getShared(ada.id), ada, 'read once before the update');
    const renamed = { ...ada, username: 'ada2', is_active: false };
    await store.users.update(renamed);
    t.same(await store.users.get(ada.id), renamed, 'get');
    t.same(await store.users.getShared(ada.id), renamed, 'getShared sees the update');
    t.same(await store.users.getByUsername('ada2'), renamed, 'the new username finds it');
    t.equal(await store.users.getByUsername('ada'), undefined, 'the old one does not');
    await store.users.insert(user({ username: 'ada' }));
    t.equal((await store.users.getByUsername('ada'))?.username, 'ada', 'and is free for another user');
  });

  t.test('users: delete removes the user and frees the username', async (t) => {
    const { store } = await freshStore(t, open);
    const ada = user({ username: 'ada' });
    await store.users.insert(ada);
    await store.users.getShared(ada.id);
    await store.users.delete(ada.id);
    t.equal(await store.users.get(ada.id), undefined, 'get');
    t.equal(await store.users.getShared(ada.id), undefined, 'getShared');
    t.same(await store.users.list(), [], 'list');
    const next = user({ username: 'ada' });
    await store.users.insert(next);
    t.same(await store.users.getByUsername('ada'), next, 'the username went with it');
  });

  t.test('api keys: by id, by hash, by user; usage adds up; delete removes every way in', async (t) => {
    const { store } = await freshStore(t, open);
    const [first, second, other] = [apiKey('u1'), apiKey('u1'), apiKey('u2')];
    for (const key of [first, second, other]) await store.apiKeys.insert(key);
    t.same(await store.apiKeys.get(first.id), first, 'get');
    t.same(await store.apiKeys.getByHash(second.hash), second, 'getByHash');
    t.equal(await store.apiKeys.getByHash('no-such-hash'), undefined, 'an unknown hash');
    t.same(byId(await store.apiKeys.listByUser('u1')), byId([first, second]), "listByUser: the user's keys only");
    await store.apiKeys.addUsage(first.id, 3, '2025-02-01T00:00:00.000Z');
    await store.apiKeys.addUsage(first.id, 2, '2025-02-02T00:00:00.000Z');
    t.same(await store.apiKeys.get(first.id), { ...first, total_uses: 5, last_used_at: '2025-02-02T00:00:00.000Z' }, 'usage is added to the stored count');
    await store.apiKeys.delete(first.id);
    t.equal(await store.apiKeys.get(first.id), undefined, 'deleted: get');
    t.equal(await store.apiKeys.getByHash(first.hash), undefined, 'deleted: getByHash');
    t.same(await store.apiKeys.listByUser('u1'), [second], 'deleted: listByUser');
  });
}
