/**
 * Start-up migrations under the advisory lock: three instances opening one empty schema at once apply each
 * migration once between them, and all three end up with a working store; a schema a newer build migrated is refused.
 */
import pg from 'pg';
import t, { type Test } from 'tap';
import { migrate, SchemaTooNewError } from '../src/store/pg/migrate.js';
import { MIGRATIONS } from '../src/store/pg/migrations.js';
import { openPgStore } from '../src/store/pg/pg-store.js';
import { admin, freshSchema, TEST_DATABASE_URL } from './support/postgres.js';

/** A pool of its own, as a separate instance would have. */
function instancePool(t: Test, schema: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2, options: `-c search_path=${schema}` });
  t.teardown(() => pool.end());
  return pool;
}

t.test('three instances starting at once migrate once', async (t) => {
  const schema = freshSchema(t);
  const applied = await Promise.all([1, 2, 3].map(() => migrate(instancePool(t, schema), schema)));
  const everyVersion = MIGRATIONS.map((m) => m.version);
  t.same(applied.flat().sort((a, b) => a - b), everyVersion, 'each migration was applied by exactly one of them');
  t.equal(applied.filter((versions) => versions.length > 0).length, 1, 'one instance did the work, the others found it done');
  const rows = await admin<{ version: number }>(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
  t.same(rows.map((row) => row.version), everyVersion, 'schema_migrations lists each version once');
});

t.test('three stores opened at once over one empty schema all work, on one schema', async (t) => {
  const schema = freshSchema(t);
  const stores = await Promise.all([1, 2, 3].map(() => openPgStore({ url: TEST_DATABASE_URL, schema })));
  t.teardown(() => Promise.all(stores.map((store) => store.close())));
  await stores[0].settings.put('written_by', 'first');
  t.equal(await stores[2].settings.get('written_by'), 'first', 'a write through one is read through another');
  t.same(await migrate(instancePool(t, schema), schema), [], 'a later start has nothing to apply');
});

t.test('a schema migrated by a newer build is refused, not used', async (t) => {
  const schema = freshSchema(t);
  await migrate(instancePool(t, schema), schema);
  await admin(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES (9999, 'from the future')`);
  await t.rejects(openPgStore({ url: TEST_DATABASE_URL, schema }), SchemaTooNewError, 'opening it fails with the reason');
});
