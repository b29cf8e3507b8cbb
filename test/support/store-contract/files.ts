/** The store contract for v2 file records: by id, by owner, replaced in place, deleted, kept across a restart. */
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import type { FileRecord } from '../../../protocol/file.schema.js';
import { freshStore, type OpenStore } from './opened.js';

const AT = '2025-01-01T00:00:00.000Z';
const file = (userId: string, fields: Partial<FileRecord> = {}): FileRecord => {
  const id = randomUUID();
  return { id, user_id: userId, name: 'report', extension: 'pdf', path: `${userId}/${id}.pdf`, size: 12, provider: null, created_at: AT, updated_at: AT, ...fields };
};
const byId = (files: FileRecord[]) => [...files].sort((a, b) => a.id.localeCompare(b.id));

export function filesContract(t: Test, open: OpenStore): void {
  t.test('files: by id and by owner, replaced in place, deleted, kept across a restart', async (t) => {
    const { store, restart } = await freshStore(t, open);
    const [mine, alsoMine, theirs] = [file('u1'), file('u1', { name: 'report' }), file('u2')];
    for (const f of [mine, alsoMine, theirs]) await store.files.put(f);
    t.same(await store.files.get(mine.id), mine, 'get');
    t.equal(await store.files.get('no-such-id'), undefined, 'an unknown id');
    t.same(byId(await store.files.listByUser('u1')), byId([mine, alsoMine]), 'listByUser: the user\'s own');
    t.same(await store.files.listByUser('u3'), [], 'a user with none');
    const renamed = { ...mine, name: 'renamed', updated_at: '2025-02-02T00:00:00.000Z' };
    await store.files.put(renamed);
    t.same(await store.files.get(mine.id), renamed, 'put replaces');
    t.equal((await store.files.listByUser('u1')).length, 2, 'and lists it once');
    await store.files.delete(alsoMine);
    t.equal(await store.files.get(alsoMine.id), undefined, 'deleted');
    const reopened = await restart();
    t.same(await reopened.files.listByUser('u1'), [renamed], 'kept across a restart');
    t.same(await reopened.files.get(theirs.id), theirs);
  });
}
