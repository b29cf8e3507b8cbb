/**
 * Joining a cluster is checked before anything starts: NATS without the shared store, or without a files directory,
 * is a configuration error naming the variable; and a files directory that is not the one the other instances use
 * (its marker holds another token than the database's) refuses the start.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { checkSharedFilesDir } from '../../src/cluster/shared-files-dir.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openLmdbStore } from '../../src/store/lmdb/lmdb-store.js';

const nats = { NATS_URL: 'nats://127.0.0.1:4222' };

t.test('NATS needs the shared store and a files directory', async (t) => {
  t.throws(() => loadConfig({}, nats), ConfigError);
  t.throws(() => loadConfig({}, nats), /FLOWSVC_NATS_URL: needs FLOWSVC_DATABASE_URL/);
  t.throws(() => loadConfig({}, { ...nats, DATABASE_URL: 'postgres://db/x' }), /FLOWSVC_FILES_DIR: required/);
  const config = loadConfig({}, { ...nats, DATABASE_URL: 'postgres://db/x', FILES_DIR: '/srv/files' });
  t.equal(config.CLUSTER_NAME, 'x', 'the cluster is named after the database by default');
  const named = (url: string) => loadConfig({}, { ...nats, DATABASE_URL: url, FILES_DIR: '/srv/files' }).CLUSTER_NAME;
  t.equal(named('postgres://u:p@db:5432/flow.svc%20prod?sslmode=require'), 'flow_svc_prod', 'what subjects cannot hold becomes _');
  t.equal(named('postgres://alice@db'), 'alice', 'no database named: libpq uses the user name, and so does the cluster');
  t.equal(named(`postgres://db/${'d'.repeat(40)}`), 'd'.repeat(32), 'at most 32 characters');
  t.throws(() => named('postgres://db'), /FLOWSVC_CLUSTER_NAME: required/, 'nothing to derive it from: it must be set');
  t.equal(loadConfig({}, { ...nats, DATABASE_URL: 'postgres://db', FILES_DIR: '/srv/files', CLUSTER_NAME: 'prod' }).CLUSTER_NAME, 'prod');
  t.equal(loadConfig({}, {}).CLUSTER_NAME, 'default', 'without NATS the name is not used');
  t.equal(config.JOB_LEASE_SECONDS, 15);
  t.throws(() => loadConfig({}, { CLUSTER_NAME: 'has.dots' }), /FLOWSVC_CLUSTER_NAME/);
  t.throws(() => loadConfig({}, { NATS_URL: 'http://nats' }), /FLOWSVC_NATS_URL=http:\/\/nats is not valid: a nats:\/\/ URL/);
  t.throws(() => loadConfig({}, { DATABASE_URL: 'mysql://root:hunter2@db/x' }), { message: /^FLOWSVC_DATABASE_URL \(25 characters, not shown\) is not valid: a postgres:\/\/ URL$/ }, 'a secret setting is not repeated');
});

t.test('the files directory must be the one the other instances use', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'flowsvc-files-dir-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const store = openLmdbStore(join(root, 'db'));
  t.teardown(() => store.close());
  const shared = join(root, 'shared');
  await checkSharedFilesDir(shared, store.settings);
  await t.resolves(checkSharedFilesDir(shared, store.settings), 'a second instance on the same directory starts');
  await t.resolves(Promise.all([1, 2, 3].map(() => checkSharedFilesDir(shared, store.settings))), 'so do several at once');
  await t.rejects(checkSharedFilesDir(join(root, 'local'), store.settings).then(() => checkSharedFilesDir(join(root, 'other'), store.settings)), /not the directory the other instances/);
  writeFileSync(join(shared, '.flowsvc-cluster'), 'another cluster');
  await t.rejects(checkSharedFilesDir(shared, store.settings), /FLOWSVC_FILES_DIR/);
});
