/** What every PostgreSQL repo shares: transactions, reading a record back from its JSON, unique clashes. */
import type { Pool, PoolClient } from 'pg';
import { NameTakenError, type NameField } from '../name-taken.error.js';
import { asUnavailable, isConnectionLost, triesPastDeadConnections } from './resilient-pool.js';

/** The database's clock in epoch milliseconds: lease times and record ages are measured by it, never by an instance's. */
export const DB_NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** Owner-less records (Langflow's shared flows and projects) are stored under the empty owner, as in LMDB. */
export const owner = (userId: string | null): string => userId ?? '';

/**
 * Runs `work` in one transaction on one pooled connection: committed when it resolves, rolled back when it throws.
 * A connection found dead at BEGIN (cut while idle in the pool) is dropped for another: nothing ran on it yet.
 */
export async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect().catch((error: unknown) => Promise.reject(asUnavailable(error)));
    try {
      await client.query('BEGIN');
    } catch (error) {
      client.release(error as Error);
      if (attempt < triesPastDeadConnections(pool) && isConnectionLost(error)) continue;
      throw asUnavailable(error);
    }
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw asUnavailable(error);
    } finally {
      client.release();
    }
  }
}

/** The records of a `SELECT doc ...`. */
export async function docs<T>(pool: Pool | PoolClient, sql: string, params: unknown[]): Promise<T[]> {
  const { rows } = await pool.query<{ doc: T }>(sql, params);
  return rows.map((row) => row.doc);
}

/** The one record of a `SELECT doc ...`, or undefined. */
export async function doc<T>(pool: Pool | PoolClient, sql: string, params: unknown[]): Promise<T | undefined> {
  const { rows } = await pool.query<{ doc: T }>(sql, params);
  return rows[0]?.doc;
}

/** A record as its `doc` parameter (json columns take text). */
export const json = (record: unknown): string => JSON.stringify(record);

/**
 * `write`, with a unique violation of one of `constraints` rejected as the NameTakenError the port promises: the
 * database's unique constraints are what make a name unique, across every instance.
 */
export async function uniqueNames<T>(write: Promise<T>, constraints: Record<string, readonly [NameField, string | null | undefined]>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const violated = error as { code?: string; constraint?: string };
    const clash = violated.code === '23505' && violated.constraint ? constraints[violated.constraint] : undefined;
    if (clash) throw new NameTakenError(clash[0], clash[1] ?? '');
    throw error;
  }
}

/** Inside a transaction: waits for, then holds until commit, the lock on one owner's names of one kind of record. */
export async function lockNames(client: PoolClient, kind: string, ownerKey: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${kind}:${ownerKey}`]);
}
