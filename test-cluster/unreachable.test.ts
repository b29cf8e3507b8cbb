/**
 * A start-up whose FLOWSVC_DATABASE_URL leads nowhere ends at once with one line saying so (the server, never its
 * password), and a non-zero exit: no stack trace, no hang.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { closedPort } from '../test/support/http-fixture.js';
import { runCli } from '../test/support/process.js';
import { TEST_DATABASE_URL } from './support/postgres.js';

const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-unreachable-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

const serveWith = (databaseUrl: string) => runCli(['serve'], { FLOWSVC_PORT: '0', FLOWSVC_DATA_DIR: dataDir, FLOWSVC_DATABASE_URL: databaseUrl, FLOWSVC_LOG_LEVEL: 'warn' });

t.test('no server at the URL', async (t) => {
  const url = `postgres://flowsvc:hunter2-secret@127.0.0.1:${await closedPort()}/flowsvc`;
  const { code, stderr } = await serveWith(url);
  t.equal(code, 1, 'exits 1');
  t.match(stderr, /^flowsvc: cannot reach PostgreSQL at postgres:\/\/flowsvc:\*\*\*@127\.0\.0\.1:\d+\/flowsvc \(FLOWSVC_DATABASE_URL\): connect ECONNREFUSED/, 'says which server, and why');
  t.notMatch(stderr, /hunter2-secret/, 'without the password');
  t.notMatch(stderr, /\n\s+at /, 'and without a stack trace');
});

t.test('a database that does not exist on the server', async (t) => {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = '/flowsvc_no_such_database';
  const { code, stderr } = await serveWith(url.toString());
  t.equal(code, 1, 'exits 1');
  t.match(stderr, /cannot reach PostgreSQL .*database "flowsvc_no_such_database" does not exist/, 'names the missing database');
});
