/**
 * Applies the migrations a schema lacks, at start-up, under a PostgreSQL advisory lock held for the whole step: of
 * several instances starting at once, the first applies them and the others, once they get the lock, find nothing
 * left to do. Each migration commits with its row in `schema_migrations`, so one cut off halfway is applied again
 * whole by the next start.
 */
import type { Pool } from 'pg';
import { MIGRATIONS, type Migration } from './migrations.js';

/** The advisory lock's first key (the second is the schema's hash): one lock per schema, ours alone. */
const LOCK_CLASS = 0x666c6f77; // 'flow'

/** A migration this build does not know is in the schema: a newer flowsvc migrated it. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

/** Resolves to the versions this call applied (empty when the schema was up to date). */
export async function migrate(pool: Pool, schema: string, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_CLASS, schema]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS "${schema}".schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const { rows } = await client.query<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations`);
      const present = new Set(rows.map((row) => row.version));
      const known = new Set(migrations.map((m) => m.version));
      const unknown = [...present].filter((version) => !known.has(version));
      if (unknown.length > 0) throw new SchemaTooNewError(`schema "${schema}" has migrations this build does not know (${unknown.join(', ')}): run a newer flowsvc`);
      const applied: number[] = [];
      for (const migration of migrations) {
        if (present.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(`SET LOCAL search_path TO "${schema}"`);
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        applied.push(migration.version);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, schema]);
    }
  } finally {
    client.release();
  }
}
