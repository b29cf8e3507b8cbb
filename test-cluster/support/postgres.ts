/**
 * The PostgreSQL the cluster tests use (`FLOWSVC_TEST_DATABASE_URL`, trust auth): each test gets its own schema or
 * database, made here and dropped when the test ends, so tests run in any order and leave nothing behind.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Test } from 'tap';

export const TEST_DATABASE_URL = process.env.FLOWSVC_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

const uniqueName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** Runs one statement on the test server's maintenance connection. */
export async function admin<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = [], url = TEST_DATABASE_URL): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A schema name of its own for this test, dropped (with whatever was made in it) when the test ends. */
export function freshSchema(t: Test): string {
  const schema = uniqueName('flowsvc_test');
  t.teardown(() => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  return schema;
}

/** A database of its own for this test; resolves to its URL. Dropped when the test ends (its connections cut). */
export async function freshDatabase(t: Test): Promise<string> {
  const name = uniqueName('flowsvc_test');
  await admin(`CREATE DATABASE ${name}`);
  t.teardown(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Cuts every connection to `database` but the caller's and returns once each cut backend has exited, blocking this
 * process throughout: it reads none of its sockets meanwhile, so its pools still hold the dead connections as idle
 * (the moment, after a server restart, before a pool has noticed). pg_terminate_backend's timeout is what waits.
 */
export function cutConnectionsNow(database: string, url = TEST_DATABASE_URL): number {
  const script = `const pg = require('pg');
    const client = new pg.Client({ connectionString: process.argv[1] });
    client.connect()
      .then(() => client.query('SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [process.argv[2]]))
      .then(({ rows }) => { process.stdout.write(String(rows.length)); return client.end(); });`;
  return Number(execFileSync(process.execPath, ['-e', script, url, database], { encoding: 'utf8' }));
}
