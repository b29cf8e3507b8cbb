/** The contract for projects and global variables: both keep one name per owner. */
import type { Test } from 'tap';
import { projectRenamer } from '../../../src/services/unique-names.js';
import { freshStore, type OpenStore } from './opened.js';
import { byId, project, variable } from './records.js';
import { refused } from './refused.js';

export function projectsContract(t: Test, open: OpenStore): void {
  t.test('projects: reads, and a name unique per owner', async (t) => {
    const { store } = await freshStore(t, open);
    const [home, work, shared] = [project('u1', { name: 'Home' }), project('u1', { name: 'Work' }), project(null, { name: 'Home' })];
    for (const p of [home, work, shared]) t.same(await store.projects.insert(p), p, `insert resolves to ${p.name} as stored`);
    t.same(await store.projects.get(work.id), work, 'get');
    t.same(await store.projects.getByName('u1', 'Home'), home, 'getByName');
    t.same(await store.projects.getByName(null, 'Home'), shared, 'getByName, owner-less');
    t.equal(await store.projects.getByName('u2', 'Home'), undefined, "another owner's name");
    t.same(byId(await store.projects.listByUser('u1')), byId([home, work]), 'listByUser');
    const twin = project('u1', { name: 'Home' });
    await refused(t, store.projects.insert(twin), 'name', 'Home', 'a taken name without a renamer');
    t.equal(await store.projects.get(twin.id), undefined, 'the refused project is not stored');
    await refused(t, store.projects.update({ ...work, name: 'Home' }), 'name', 'Home', 'renaming onto a taken name');
    t.same(await store.projects.get(work.id), work, 'the refused update changed nothing');
  });

  t.test('projects: a renamer resolves a clash; renames and deletes free the name', async (t) => {
    const { store } = await freshStore(t, open);
    const home = project('u1', { name: 'Home' });
    await store.projects.insert(home);
    const three = project('u1', { name: 'Home (3)' });
    await store.projects.insert(three);
    const renamed = await store.projects.insert(project('u1', { name: 'Home' }), projectRenamer);
    t.equal(renamed.name, 'Home (4)', 'the renamer chose from the names taken');
    t.same(await store.projects.getByName('u1', 'Home (4)'), renamed, 'stored under that name');
    const house = { ...home, name: 'House' };
    await store.projects.update(house);
    t.equal(await store.projects.getByName('u1', 'Home'), undefined, 'a rename releases the old name');
    t.same(await store.projects.getByName('u1', 'House'), house, 'and keeps the project under the new one');
    await store.projects.delete(renamed.id);
    t.equal(await store.projects.get(renamed.id), undefined, 'deleted');
    t.same(byId(await store.projects.listByUser('u1')), byId([house, three]), 'listed no more');
    const reuse = project('u1', { name: 'Home (4)' });
    t.same(await store.projects.insert(reuse), reuse, 'its name is free');
  });
}

export function variablesContract(t: Test, open: OpenStore): void {
  t.test('variables: reads, a name unique per user, renames and deletes', async (t) => {
    const { store } = await freshStore(t, open);
    const [key, other, theirs] = [variable('u1', { name: 'KEY' }), variable('u1', { name: 'OTHER' }), variable('u2', { name: 'KEY' })];
    for (const v of [key, other, theirs]) await store.variables.put(v);
    t.same(await store.variables.get(key.id), key, 'get');
    t.same(await store.variables.getByName('u2', 'KEY'), theirs, "getByName: the user's own");
    t.same(byId(await store.variables.listByUser('u1')), byId([key, other]), 'listByUser');
    const twin = variable('u1', { name: 'KEY' });
    await refused(t, store.variables.put(twin), 'name', 'KEY', 'a second variable of a taken name');
    t.equal(await store.variables.get(twin.id), undefined, 'the refused variable is not stored');
    await refused(t, store.variables.put({ ...other, name: 'KEY' }, 'OTHER'), 'name', 'KEY', 'renaming onto a taken name');
    t.same(await store.variables.getByName('u1', 'OTHER'), other, 'the refused rename changed nothing');
    const changed = { ...key, value: 'new value' };
    await store.variables.put(changed, 'KEY');
    t.same(await store.variables.get(key.id), changed, 'put replaces under the same name');
    const renamed = { ...other, name: 'RENAMED' };
    await store.variables.put(renamed, 'OTHER');
    t.same(await store.variables.getByName('u1', 'RENAMED'), renamed, 'a rename finds it under the new name');
    t.equal(await store.variables.getByName('u1', 'OTHER'), undefined, 'and not under the old one');
    await store.variables.delete(renamed);
    t.equal(await store.variables.get(renamed.id), undefined, 'deleted');
    t.same(await store.variables.listByUser('u1'), [changed], 'listed no more');
    await store.variables.put(variable('u1', { name: 'RENAMED' }));
    t.equal((await store.variables.getByName('u1', 'RENAMED'))?.value, 'value', 'its name is free');
  });
}
