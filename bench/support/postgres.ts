/**
 * The PostgreSQL a bench measures against (`FLOWSVC_BENCH_DATABASE_URL`, else the cluster tests' URL, else the local
 * default): whether one answers, and a throwaway database on it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const BENCH_DATABASE_URL =
  process.env.FLOWSVC_BENCH_DATABASE_URL || process.env.FLOWSVC_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Whether a PostgreSQL answers at the bench's URL. */
export async function postgresReachable(): Promise<boolean> {
  return admin('SELECT 1').then(
    () => true,
    () => false,
  );
}

/** A fresh database: its URL, and how to drop it (its connections cut). */
export async function throwawayDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `flowsvc_bench_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(BENCH_DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
