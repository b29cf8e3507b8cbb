/**
 * The PostgreSQL implementation of the storage port, for several instances sharing one database
 * (`FLOWSVC_DATABASE_URL`). Opening it migrates the schema first (migrate.ts: once, whoever starts first). One pool
 * per process; each repo is its own file, as in src/store/lmdb.
 */
import pg from 'pg';
import type { Store } from '../port.js';
import { storeLife } from '../store-life.js';
import { pgApiKeys } from './api-keys.repo.js';
import { pgFiles } from './files.repo.js';
import { pgFlowVersions } from './flow-versions.repo.js';
import { pgFlows } from './flows.repo.js';
import { pgJobs } from './jobs.repo.js';
import { pgJobLeases } from './job-leases.repo.js';
import { pgKnowledge } from './knowledge.repo.js';
import { pgMessages } from './messages.repo.js';
import { holdInstanceLock } from './instance-lock.js';
import { migrate } from './migrate.js';
import { DatabaseUnreachableError, isConnectFailure } from './unreachable.error.js';
import { ResilientPool } from './resilient-pool.js';
import { pgProjects } from './projects.repo.js';
import { pgResponses } from './responses.repo.js';
import { pgRunRecords } from './run-records.repo.js';
import { pgSettings } from './settings.repo.js';
import { pgUsers } from './users.repo.js';
import { pgVariables } from './variables.repo.js';
import { pgVertexBuilds } from './vertex-builds.repo.js';

export interface PgStoreOptions {
  /** postgres://user@host:port/database */
  url: string;
  /** The schema the tables live in (tests give each store its own). */
  schema?: string;
  /** Connections in the pool: the most batches and queries in flight at once. */
  poolSize?: number;
  /** A pooled connection failed while idle (the server restarted): reported here, the pool connects again. */
  onIdleError?: (error: Error) => void;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const CONNECT_TIMEOUT_MS = 10_000;

export async function openPgStore({ url, schema = 'public', poolSize = 10, onIdleError }: PgStoreOptions): Promise<Store> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`not a schema name flowsvc uses: ${schema}`);
  // Typed as pg's Pool: the repos use its query overloads, which the resilient pool keeps.
  const pool: pg.Pool = new ResilientPool({
    connectionString: url,
    max: poolSize,
    options: `-c search_path=${schema}`,
    application_name: 'flowsvc',
    // A server that does not answer fails a start-up, or a request, in bounded time instead of hanging it.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // Without a listener, an idle connection's error (a server restart) would end the process.
  pool.on('error', (error) => onIdleError?.(error));
  try {
    await migrate(pool, schema);
  } catch (error) {
    await pool.end();
    throw isConnectFailure(error) ? new DatabaseUnreachableError(url, error) : error;
  }
  const instance = await holdInstanceLock(url, schema, (error) => onIdleError?.(error)).catch(async (error: unknown) => {
    await pool.end();
    throw error;
  });
  const messages = pgMessages(pool);
  const jobs = pgJobs(pool);
  const responses = pgResponses(pool);
  const leases = pgJobLeases(pool);

  const writeAndReadBack = async () => {
    const probe = `${process.pid}:${Date.now()}:${Math.random()}`;
    const { rows } = await pool.query<{ value: string }>(
      `INSERT INTO settings (name, value) VALUES ('health.probe', $1) ON CONFLICT (name) DO UPDATE SET value = excluded.value RETURNING value`,
      [probe],
    );
    if (rows[0]?.value !== probe) throw new Error('store read-back mismatch');
  };

  return {
    users: pgUsers(pool),
    apiKeys: pgApiKeys(pool),
    flows: pgFlows(pool),
    projects: pgProjects(pool),
    messages,
    variables: pgVariables(pool),
    files: pgFiles(pool),
    flowVersions: pgFlowVersions(pool),
    jobs,
    responses,
    vertexBuilds: pgVertexBuilds(pool),
    runRecords: pgRunRecords(pool),
    knowledge: pgKnowledge(pool),
    settings: pgSettings(pool),
    leases,
    openedAlone: () => Promise.resolve(instance.alone),
    ...storeLife(writeAndReadBack, async () => {
      // Batched writes not yet sent go before the pool does.
      await Promise.all([messages.drain(), jobs.drain(), responses.drain(), leases.drain()]);
      await Promise.all([pool.end(), instance.release()]);
    }),
  };
}
