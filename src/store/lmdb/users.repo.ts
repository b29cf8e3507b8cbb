/** Users in LMDB: `users` by id, `usernames` as the unique index. */
import type { Database, RootDatabase } from 'lmdb';
import type { UserRecord } from '../../../protocol/user.schema.js';
import { NameTakenError } from '../name-taken.error.js';
import type { UserRepo } from '../port.js';
import { answer } from './answer.js';
import { SharedRecords } from './shared-records.js';

/** Users whose decoded record is kept for getShared. */
const SHARED_MAX = 10_000;

export function lmdbUsers(env: RootDatabase): UserRepo {
  const users: Database<UserRecord, string> = env.openDB({ name: 'users', encoding: 'msgpack' });
  const usernames: Database<string, string> = env.openDB({ name: 'usernames', encoding: 'msgpack' });

  const shared = new SharedRecords<UserRecord>(SHARED_MAX, (id) => users.get(id));
  const written = <T>(id: string, write: Promise<T>): Promise<T> => shared.written([id], write);

  return {
    get: (id) => answer(() => users.get(id)),
    getShared: (id) => answer(() => shared.get(id)),
    getByUsername: (username) =>
      answer(() => {
        const id = usernames.get(username);
        return id ? users.get(id) : undefined;
      }),
    list: () => answer(() => [...users.getRange().map(({ value }) => value)]),
    // A clash throws before the transaction writes anything (lmdb keeps what a throwing callback already wrote).
    insert: (user) =>
      written(
        user.id,
        env.transaction(() => {
          if (usernames.get(user.username) !== undefined) throw new NameTakenError('username', user.username);
          usernames.put(user.username, user.id);
          users.put(user.id, user);
        }),
      ),
    update: (user) =>
      written(
        user.id,
        env.transaction(() => {
          const previous = users.get(user.id);
          const holder = usernames.get(user.username);
          if (holder !== undefined && holder !== user.id) throw new NameTakenError('username', user.username);
          if (previous && previous.username !== user.username) usernames.remove(previous.username);
          usernames.put(user.username, user.id);
          users.put(user.id, user);
        }),
      ),
    delete: (id) =>
      written(
        id,
        env.transaction(() => {
          const previous = users.get(id);
          if (previous) usernames.remove(previous.username);
          users.remove(id);
        }),
      ),
  };
}
