/**
 * Whether an instance opened the store alone (start-up recovery is then its to do): of instances opening together
 * exactly one is, none is while another is open, and one is again once every other has closed.
 */
import t from 'tap';
import { openPgStore } from '../src/store/pg/pg-store.js';
import { freshSchema, TEST_DATABASE_URL } from './support/postgres.js';

t.test('openedAlone across instances of one schema', async (t) => {
  const schema = freshSchema(t);
  const open = () => openPgStore({ url: TEST_DATABASE_URL, schema });
  const together = await Promise.all([open(), open(), open()]);
  const alone = await Promise.all(together.map((store) => store.openedAlone()));
  t.equal(alone.filter(Boolean).length, 1, 'of three opening at once, exactly one opened alone');

  await together[alone.indexOf(true)].close();
  const meanwhile = await open();
  t.equal(await meanwhile.openedAlone(), false, 'one opening while others run is not alone, the first one gone or not');

  await Promise.all([...together.filter((_, i) => !alone[i]), meanwhile].map((store) => store.close()));
  const afterwards = await open();
  t.teardown(() => afterwards.close());
  t.equal(await afterwards.openedAlone(), true, 'once every other closed, the next one is alone again');
});

t.test('another schema is another set of instances', async (t) => {
  const [first, second] = await Promise.all([freshSchema(t), freshSchema(t)].map((schema) => openPgStore({ url: TEST_DATABASE_URL, schema })));
  t.teardown(() => Promise.all([first.close(), second.close()]));
  t.same([await first.openedAlone(), await second.openedAlone()], [true, true], 'each alone on its own schema');
});
