/** Users in LMDB: `users` by id, `usernames` as the unique index. */
import type { Database, RootDatabase } from 'lmdb';
import type { UserRecord } from '../../../protocol/user.schema.js';
import type { UserRepo } from '../port.js';

/** Users whose decoded record is kept for getShared. */
const SHARED_MAX = 10_000;

export function lmdbUsers(env: RootDatabase): UserRepo {
  const users: Database<UserRecord, string> = env.openDB({ name: 'users', encoding: 'msgpack' });
  const usernames: Database<string, string> = env.openDB({ name: 'usernames', encoding: 'msgpack' });

  // Decoded records for getShared; a write drops the user when issued and again once committed (a read between
  // the two sees the previous commit and may keep that record).
  const shared = new Map<string, UserRecord>();
  const written = <T>(id: string, write: Promise<T>): Promise<T> => {
    shared.delete(id);
    return write.finally(() => shared.delete(id));
  };

  return {
    get: (id) => users.get(id),
    getShared(id) {
      let user = shared.get(id);
      if (user) return user;
      user = users.get(id);
      if (user) {
        if (shared.size >= SHARED_MAX) shared.delete(shared.keys().next().value!);
        shared.set(id, user);
      }
      return user;
    },
    getByUsername(username) {
      const id = usernames.get(username);
      return id ? users.get(id) : undefined;
    },
    list: () => [...users.getRange().map(({ value }) => value)],
    insert: (user) =>
      written(
        user.id,
        env.transaction(() => {
          if (usernames.get(user.username) !== undefined) return false;
          usernames.put(user.username, user.id);
          users.put(user.id, user);
          return true;
        }),
      ),
    update: (user) =>
      written(
        user.id,
        env.transaction(() => {
          const previous = users.get(user.id);
          const holder = usernames.get(user.username);
          if (holder !== undefined && holder !== user.id) return false;
          if (previous && previous.username !== user.username) usernames.remove(previous.username);
          usernames.put(user.username, user.id);
          users.put(user.id, user);
          return true;
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
